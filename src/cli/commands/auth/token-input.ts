// Where a token may come from: stdin (--with-token) or a hidden prompt. Never a flag value:
// flags end up in `ps` output and shell history.
import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';
import { promptSecret } from '../../prompts.js';

const MAX_TOKEN_BYTES = 4096;

export async function readTokenFromStdin(ctx: Context): Promise<string> {
  if (ctx.io.stdinIsTTY)
    throw new UsageError('--with-token reads the token from stdin, but stdin is a terminal', 'pipe it in: `reldist auth login --with-token < token.txt`');
  let text = '';
  for await (const chunk of ctx.io.stdin) {
    text += typeof chunk === 'string' ? chunk : (chunk as Buffer).toString('utf8');
    if (text.length > MAX_TOKEN_BYTES) throw new UsageError('--with-token: stdin holds more than a token (over 4 KB)');
  }
  const token = text.trim();
  if (!token) throw new UsageError('--with-token: stdin was empty', 'pipe the token in: `reldist auth login --with-token < token.txt`');
  if (/\s/.test(token)) throw new UsageError('--with-token: a token is one word; stdin held several');
  return token;
}

export async function askToken(ctx: Context): Promise<string> {
  return (await promptSecret(ctx, { message: 'Paste your API token:', flag: '--with-token (and the token on stdin)' })).trim();
}
