// What every `sandbox` verb does: resolve the releases, move each with its control, one line per
// release, and the worst exit status of them. A service without the controls answers 404 to them
// although the release exists: that is said once, in the user's terms.
import { ApiError, callSandbox, type ApiClient, type SandboxBodyOf } from '../../../client/index.js';
import type { EntityId, ReleaseStatus, SandboxEndpointId } from '../../../contract/index.js';
import type { Context } from '../../context.js';
import { describeError } from '../../describe-error.js';
import { CliError, ExitCode, worstExit } from '../../errors.js';
import { printJson } from '../../output/index.js';
import { conflictStatus } from '../../shared/release-status.js';
import { tsvCell } from '../../output/format.js';
import { releaseLabel, resolveReleaseRefs, type ReleaseRef } from '../../shared/release-ref.js';
import { statusWords } from '../../shared/release-views.js';

export const NO_SANDBOX = 'this service has no sandbox controls (they exist only on `reldist serve --sandbox` and the embedded sandbox)';

/** One line of --json: the state the release is in now (null only when it cannot be known). */
interface Outcome {
  release_id: EntityId;
  catalog_number: string | null;
  status: ReleaseStatus | null;
  error: { code: string; message: string } | null;
}

export async function runControl<Id extends SandboxEndpointId>(ctx: Context, endpointId: Id, args: string[], body: SandboxBodyOf<Id>): Promise<void> {
  const client = await ctx.services.client();
  const refs = await resolveReleaseRefs(client, args, ctx.signal);
  const outcomes: { outcome: Outcome; exit: number; cause?: unknown }[] = [];
  // One after another: the lines come back in the order asked.
  for (const ref of refs) {
    try {
      const r = await callSandbox(client, endpointId, ref.id, body, { signal: ctx.signal });
      outcomes.push({ outcome: { release_id: ref.id, catalog_number: r.catalog_number, status: r.status, error: null }, exit: ExitCode.ok });
    } catch (err) {
      if (err instanceof ApiError && err.status === 404 && (await releaseExists(client, ref, ctx.signal))) {
        throw new CliError(NO_SANDBOX, { code: 'no_sandbox' });
      }
      if (ctx.signal.aborted) throw err;
      const d = describeError(err, { debug: false });
      // A release in a state the control does not take is still in that state: said, not null.
      const status = (await conflictStatus(client, ref.id, err, ctx.signal)) ?? null;
      outcomes.push({
        outcome: { release_id: ref.id, catalog_number: ref.catalogNumber, status, error: { code: d.code, message: d.message } },
        exit: d.exitCode,
        cause: err,
      });
    }
  }
  // One release that could not be moved: its own error, as is.
  if (outcomes.length === 1 && outcomes[0]!.cause !== undefined) throw outcomes[0]!.cause;
  report(
    ctx,
    outcomes.map((o) => o.outcome),
  );
  const worst = worstExit(outcomes.map((o) => o.exit));
  if (worst === ExitCode.ok) return;
  const bad = outcomes.filter((o) => o.exit !== ExitCode.ok).length;
  throw new CliError(`${bad} of ${outcomes.length} releases were not moved`, {
    exitCode: worst as ExitCode,
    code: 'sandbox_failed',
    hint: 'see the lines above for each release',
  });
}

function report(ctx: Context, outcomes: Outcome[]): void {
  if (ctx.globals.json) {
    printJson(ctx, outcomes.length === 1 ? outcomes[0] : outcomes);
    return;
  }
  let out = '';
  for (const o of outcomes) {
    if (ctx.io.stdoutIsTTY) {
      out += `${releaseLabel(o.release_id, o.catalog_number)}: ${o.error ? `failed: ${o.error.message}` : statusWords(o.status ?? '')}\n`;
    } else {
      out += `${[String(o.release_id), o.error ? 'error' : (o.status ?? ''), o.error?.message ?? ''].map(tsvCell).join('\t').trimEnd()}\n`;
    }
  }
  ctx.io.stdout.write(out);
}

/** Whether the release is there: tells a missing control (no sandbox) from a missing release. */
async function releaseExists(client: ApiClient, ref: ReleaseRef, signal: AbortSignal): Promise<boolean> {
  try {
    await client.call('getRelease', { params: { releaseId: ref.id }, signal });
    return true;
  } catch {
    return false;
  }
}
