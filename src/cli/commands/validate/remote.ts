// --remote: asks the service too (POST /releases/validate/upc|isrc). The only file of `validate`
// that touches the HTTP client and session, loaded only when --remote is given.
import type { Context } from '../../context.js';
import { CliError } from '../../errors.js';
import type { RemoteVerdict, Verdict } from './format.js';

/** Returns a function that asks the service about one code. */
export async function remoteChecker(
  ctx: Context,
  kind: 'upc' | 'isrc',
  releaseId: string | undefined,
): Promise<(code: string, local: Verdict) => Promise<RemoteVerdict>> {
  // 'long': undici's pool, which keeps the concurrent requests of run.ts on a few connections.
  const client = await ctx.services.client({ workload: 'long' });
  return async (code) => {
    const body =
      kind === 'upc'
        ? await client.call('validateUpc', { body: releaseId === undefined ? { upc: code } : { upc: code, release_id: releaseId } })
        : await client.call('validateIsrc', { body: { isrc: code } });
    return toRemoteVerdict(body);
  };
}

/** Reads ValidationResultData loosely: the service may add fields, and may wrap it in `data`. */
export function toRemoteVerdict(body: unknown): RemoteVerdict {
  const obj = asRecord(body);
  const data = typeof obj?.valid === 'boolean' ? obj : asRecord(obj?.data);
  if (!data || typeof data.valid !== 'boolean') {
    throw new CliError('the service answered the validation with an unexpected shape', { code: 'bad_response' });
  }
  const problems = Array.isArray(data.problems) ? data.problems : [];
  return {
    valid: data.valid,
    normalized: typeof data.normalized === 'string' ? data.normalized : null,
    problems: problems.map((p) => {
      const r = asRecord(p) ?? {};
      return {
        code: String(r.code ?? 'unknown'),
        message: String(r.message ?? r.code ?? ''),
        severity: r.severity === 'warning' ? 'warning' : 'error',
      };
    }),
    body: data,
  };
}

function asRecord(v: unknown): Record<string, unknown> | undefined {
  return isRecord(v) ? v : undefined;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
