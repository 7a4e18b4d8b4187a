// Sandbox controls: what a distributor's review team and the stores would do to a release,
// under /_sandbox so they never mix with the specified paths. Enabled only when the service
// runs as a sandbox; otherwise these paths do not exist (404). Each acts on one of the
// caller's own releases (another user's is 404 as everywhere).
//
// POST /_sandbox/releases/{releaseId}/approve     in_review → approved
// POST /_sandbox/releases/{releaseId}/reject      in_review → rejected   {codes: [...], notes?}
// POST /_sandbox/releases/{releaseId}/withdraw    in_review → draft      (the label takes it back)
// POST /_sandbox/releases/{releaseId}/deliver     approved  → delivered
// POST /_sandbox/releases/{releaseId}/go-live     delivered → live
// POST /_sandbox/releases/{releaseId}/take-down   delivered | live → taken_down
import * as z from 'zod';
import type { ReleaseResource } from '../../contract/index.js';
import type { RequestInput, ServerDeps } from '../handler.js';
import { transition, type Transition } from '../rules/state-machine.js';
import { parseId } from '../store/ids.js';
import { getRelease, saveRelease, toReleaseResource } from '../store/releases.js';

export const RejectRequest = z.strictObject({
  codes: z.array(z.string().regex(/^[a-z][a-z0-9_]{0,63}$/, 'a snake_case reason code')).min(1).max(20),
  notes: z.string().trim().max(2000).optional(),
});

const EmptyRequest = z.strictObject({});

/** The path of every sandbox control: /_sandbox/releases/{releaseId}/<action>. */
export const SandboxParams = z.strictObject({ releaseId: z.string().min(1).max(64) });

/** A control's input: params parsed by SandboxParams; its body by the route's own schema. */
type SandboxHandler = (input: RequestInput<z.output<typeof SandboxParams>, unknown, unknown>, deps: ServerDeps) => ReleaseResource;

export interface SandboxRoute {
  action: string;
  transition: Transition;
  body: z.ZodType;
  handler: SandboxHandler;
}

function move(t: Transition): SandboxHandler {
  return ({ user, params, body }, deps) => {
    const id = parseId(params.releaseId, 'release');
    return deps.db
      .transaction(() => {
        const r = getRelease(deps.db, user.id, id);
        const to = transition(r.row.status, t);
        const nowIso = deps.now().toISOString();
        if (t === 'reject') {
          // Already checked by app.ts against this same schema; parsed again here for its type.
          const b = RejectRequest.parse(body);
          r.data.review = { codes: b.codes, notes: b.notes ?? null, reviewed_at: nowIso };
        }
        saveRelease(deps.db, r, nowIso, t === 'withdraw' ? { status: to, submitted_at: null } : { status: to });
        return toReleaseResource(deps.db, getRelease(deps.db, user.id, id), true);
      })
      .immediate();
  };
}

export const sandboxRoutes: SandboxRoute[] = [
  { action: 'approve', transition: 'approve', body: EmptyRequest, handler: move('approve') },
  { action: 'reject', transition: 'reject', body: RejectRequest, handler: move('reject') },
  { action: 'withdraw', transition: 'withdraw', body: EmptyRequest, handler: move('withdraw') },
  { action: 'deliver', transition: 'deliver', body: EmptyRequest, handler: move('deliver') },
  { action: 'go-live', transition: 'go_live', body: EmptyRequest, handler: move('go_live') },
  { action: 'take-down', transition: 'take_down', body: EmptyRequest, handler: move('take_down') },
];
