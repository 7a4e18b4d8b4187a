import type { Context } from '../../context.js';
import type { LoginOpts } from './spec.js';
import { CliError, ExitCode, UsageError } from '../../errors.js';
import { createClient, ApiError } from '../../../client/index.js';
import { normaliseBaseUrl } from '../../config/settings.js';
import { printJson, success, note } from '../../output/index.js';
import { promptText } from '../../prompts.js';
import { readConfig, updateConfig } from '../../config/store.js';
import { readTokenFromStdin, askToken } from './token-input.js';

export async function run(ctx: Context, opts: LoginOpts): Promise<void> {
  const { data } = readConfig(ctx.env);
  const profile = ctx.globals.profile ?? (ctx.env.RELDIST_PROFILE || undefined) ?? data.settings?.profile ?? 'default';
  if (!/^[\w.-]{1,64}$/.test(profile)) throw new UsageError(`--profile: "${profile}" is not a profile name (letters, digits, . _ -)`);

  let baseUrl = ctx.globals.baseUrl ?? (ctx.env.RELDIST_BASE_URL || undefined) ?? data.profiles?.[profile]?.base_url;
  if (!baseUrl) {
    baseUrl = await promptText(ctx, { message: 'Base URL of the service:', flag: '--base-url <url>' });
  }
  baseUrl = normaliseBaseUrl(baseUrl);

  const token = opts.withToken ? await readTokenFromStdin(ctx) : await askToken(ctx);

  // Check the token before saving it: a typo should fail here, not in the next command.
  const client = createClient({
    baseUrl,
    token,
    env: ctx.env,
    signal: ctx.signal,
    trace: ctx.globals.debug ? (line) => ctx.io.stderr.write(`${line}\n`) : undefined,
  });
  ctx.defer(() => client.close());
  let me: { name?: string; email?: string; kind?: string };
  try {
    me = await client.call('getMe');
  } catch (err) {
    if (err instanceof ApiError && err.status === 401) {
      throw new CliError(`${baseUrl} refused the token; nothing was saved`, {
        exitCode: ExitCode.auth,
        code: 'unauthorized',
        hint: 'check the token and try again',
      });
    }
    throw err;
  }
  const user = me.email ? `${me.name ?? ''} <${me.email}>`.trim() : (me.name ?? 'unknown');
  const path = await updateConfig(ctx.env, (c) => {
    c.profiles ??= {};
    c.profiles[profile] = { base_url: baseUrl, token, user };
  });
  if (ctx.globals.json) printJson(ctx, { profile, base_url: baseUrl, user, config_file: path });
  else success(ctx, `Logged in to ${baseUrl} as ${user} (profile ${profile})`);
  if (ctx.env.RELDIST_TOKEN) note(ctx, 'note: RELDIST_TOKEN is set and takes precedence over the saved token');
}
