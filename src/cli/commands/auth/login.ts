import { defineCommand } from '../../command.js';
import { CliError, ExitCode, UsageError } from '../../errors.js';

interface Opts {
  withToken?: boolean;
}

export const loginCommand = defineCommand<Opts>({
  name: 'login',
  summary: 'Sign in to a service and save the token in a profile',
  description:
    'Reads the token from a hidden prompt, or from stdin with --with-token (never from a flag), checks it with GET /me, ' +
    'then saves base URL and token in the profile (--profile, default "default") in a file only you can read.',
  examples: [
    'reldist auth login --base-url https://api.example.com',
    'reldist auth login --base-url https://api.example.com --with-token < token.txt',
    'echo "$TOKEN" | reldist auth login --profile ci --base-url https://api.example.com --with-token',
  ],
  configure(cmd) {
    cmd.option('--with-token', 'read the token from stdin');
  },
  async run(ctx, opts) {
    const { readConfig, updateConfig } = await import('../../config/store.js');
    const { normaliseBaseUrl } = await import('../../config/settings.js');
    const { data } = readConfig(ctx.env);
    const profile = ctx.globals.profile ?? (ctx.env.RELDIST_PROFILE || undefined) ?? data.settings?.profile ?? 'default';
    if (!/^[\w.-]{1,64}$/.test(profile)) throw new UsageError(`--profile: "${profile}" is not a profile name (letters, digits, . _ -)`);

    let baseUrl = ctx.globals.baseUrl ?? (ctx.env.RELDIST_BASE_URL || undefined) ?? data.profiles?.[profile]?.base_url;
    if (!baseUrl) {
      const { promptText } = await import('../../prompts.js');
      baseUrl = await promptText(ctx, { message: 'Base URL of the service:', flag: '--base-url <url>' });
    }
    baseUrl = normaliseBaseUrl(baseUrl);

    const { readTokenFromStdin, askToken } = await import('./token-input.js');
    const token = opts.withToken ? await readTokenFromStdin(ctx) : await askToken(ctx);

    // Check the token before saving it: a typo should fail here, not in the next command.
    const { createClient, ApiError } = await import('../../../client/index.js');
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
        throw new CliError(`${baseUrl} refused the token; nothing was saved`, { exitCode: ExitCode.auth, code: 'unauthorized', hint: 'check the token and try again' });
      }
      throw err;
    }
    const user = me.email ? `${me.name ?? ''} <${me.email}>`.trim() : (me.name ?? 'unknown');
    const path = await updateConfig(ctx.env, (c) => {
      c.profiles ??= {};
      c.profiles[profile] = { base_url: baseUrl, token, user };
    });
    const { printJson, success, note } = await import('../../output/index.js');
    if (ctx.globals.json) printJson(ctx, { profile, base_url: baseUrl, user, config_file: path });
    else success(ctx, `Logged in to ${baseUrl} as ${user} (profile ${profile})`);
    if (ctx.env.RELDIST_TOKEN) note(ctx, 'note: RELDIST_TOKEN is set and takes precedence over the saved token');
  },
});
