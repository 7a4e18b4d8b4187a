import type { Context } from '../../context.js';
import { CliError, ExitCode } from '../../errors.js';
import { maskToken, ApiError } from '../../../client/index.js';
import { printJson, printRecord } from '../../output/index.js';

export async function run(ctx: Context): Promise<void> {
  const s = await ctx.services.session();
  let user: { name?: string; email?: string; kind?: string } | undefined;
  let problem: unknown;
  if (s.token) {
    try {
      user = await (await ctx.services.client()).call('getMe');
    } catch (err) {
      problem = err;
    }
  }
  const status = {
    profile: s.profile,
    profile_source: s.profileSource,
    base_url: s.baseUrl,
    base_url_source: s.baseUrlSource ?? 'sandbox',
    sandbox_data_dir: s.sandbox?.dataDir ?? null,
    token_source: s.tokenSource ?? null,
    token_hint: s.token ? maskToken(s.token) : null,
    user: user ? { name: user.name ?? null, email: user.email ?? null, kind: user.kind ?? null } : null,
    token_valid: user ? true : problem instanceof ApiError && problem.status === 401 ? false : null,
  };
  if (ctx.globals.json) printJson(ctx, status);
  else {
    const src = (v: string | null | undefined) => (v ? ` (${v})` : '');
    await printRecord(ctx, status, [
      { header: 'Service', value: (x) => `${x.base_url}${src(x.base_url_source)}` },
      ...(status.sandbox_data_dir ? [{ header: 'Sandbox data', value: 'sandbox_data_dir' }] : []),
      { header: 'Profile', value: (x) => `${x.profile}${src(x.profile_source)}` },
      { header: 'Token', value: (x) => (x.token_hint ? `${x.token_hint}${src(x.token_source)}` : 'none') },
      { header: 'User', value: (x) => (x.user ? `${x.user.name ?? ''} <${x.user.email ?? ''}> (${x.user.kind ?? '?'})` : null) },
    ]);
  }
  if (!s.token) throw new CliError('not logged in', { exitCode: ExitCode.auth, code: 'unauthorized', hint: 'run `reldist auth login` or set RELDIST_TOKEN' });
  if (problem) throw problem;
}
