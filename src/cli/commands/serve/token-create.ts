import { mkdirSync } from 'node:fs';
import type { Context } from '../../context.js';
import type { TokenCreateOpts } from './spec.js';
import { CliError, UsageError } from '../../errors.js';
import { dataDir } from '../../paths.js';
import { loadServer } from '../../server-loader.js';
import { writeStderr } from '../../output/index.js';

const KINDS = ['label', 'artist'] as const;

export async function run(ctx: Context, opts: TokenCreateOpts): Promise<void> {
  const kind = KINDS.find((k) => k === opts.account.trim().toLowerCase());
  if (!kind) throw new UsageError(`--account: expected label or artist, got "${opts.account}"`);
  const name = opts.name.trim();
  if (name === '' || name.length > 200) throw new UsageError('--name: give the account a name (1 to 200 characters)');
  const dir = opts.dataDir ?? dataDir(ctx.env);
  const { createAccountInDataDir } = await loadServer();
  let token: string;
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    token = createAccountInDataDir(dir, kind, name);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'EACCES' || code === 'EROFS' || code === 'ENOTDIR' || code === 'EEXIST') {
      throw new CliError(`cannot use the data directory ${dir} (${code})`, { hint: 'pass --data-dir with a writable folder', cause: e });
    }
    throw e;
  }
  // The token alone on stdout (for a pipe or a file); where it went, on stderr.
  ctx.io.stdout.write(`${token}\n`);
  writeStderr(ctx, `created the ${kind} account "${name}" in ${dir}; the token above is not shown again\n`);
}
