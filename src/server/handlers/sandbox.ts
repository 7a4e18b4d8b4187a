// Sandbox controls: what a distributor's review team and the stores would do to a release,
// under /_sandbox so they never mix with the specified paths. Their routes and bodies are the
// contract's `sandboxCatalog`; they are served only when the service runs as a sandbox (otherwise
// these paths do not exist: 404). Each acts on one of the caller's own releases (another user's is
// 404 as everywhere).
//
// Auto-review (StartServerOptions.sandboxAutoReview) lets a sandbox review on its own, so a CI
// pipeline can rehearse submit → watch end to end. The embedded sandbox runs one short-lived
// server per CLI command, so no timer would survive: submit records when the review is due in the
// release's data, and every request of its owner first settles the reviews that are due.
import type { sandboxBodySchemas } from '../../contract/bodies.js';
import type { ReleaseResource } from '../../contract/resources.js';
import type { SandboxEndpointId } from '../../contract/routes.js';
import type { z } from 'zod';
import type { CommitWatch } from '../db/commit-watch.js';
import type { RequestInput, SandboxAutoReview, ServerDeps } from '../handler.js';
import { transition, type Transition } from '../rules/state-machine.js';
import { parseId } from '../store/ids.js';
import { dueAutoReviews, nextAutoReviewDue, findRelease, getRelease, saveRelease, toReleaseResource, type Release } from '../store/releases.js';
import type { Database } from 'better-sqlite3';
import { recordReviewStep } from '../events/record.js';
import { autoReviewActor, userActor, type Actor } from '../store/events.js';

type Review = { codes: string[]; notes: string | null };

/** Moves a release as the control `t` does, at `atIso`, with its event; any control cancels a pending auto-review. */
function applyControl(db: Database, by: Actor, r: Release, t: Exclude<Transition, 'submit'>, atIso: string, review?: Review): void {
  const from = r.row.status;
  const to = transition(from, t);
  if (review) r.data.review = { ...review, reviewed_at: atIso };
  delete r.data.auto_review;
  saveRelease(db, r, atIso, t === 'withdraw' ? { status: to, submitted_at: null } : { status: to });
  r.row.status = to;
  recordReviewStep(db, by, r, t, from, atIso);
}

/** A control's body, as app.ts hands it over once parsed by the contract's schema of that control. */
type SandboxBody<Id extends SandboxEndpointId> = z.output<(typeof sandboxBodySchemas)[Id]>;

/** A control's input: its path parameter and its parsed body. */
export type SandboxHandler<Body = unknown> = (input: RequestInput<{ readonly releaseId: string }, unknown, Body>, deps: ServerDeps) => ReleaseResource;

function control<Body>(t: Exclude<Transition, 'submit'>, reviewOf?: (body: Body) => Review): SandboxHandler<Body> {
  return ({ user, params, body, requestId }, deps) => {
    const id = parseId(params.releaseId, 'release');
    return deps.db
      .transaction(() => {
        const r = getRelease(deps.db, user.id, id);
        applyControl(deps.db, userActor(user, requestId), r, t, deps.now().toISOString(), reviewOf?.(body));
        return toReleaseResource(deps.db, getRelease(deps.db, user.id, id), true);
      })
      .immediate();
  };
}

function rejection(body: SandboxBody<'sandboxReject'>): Review {
  return { codes: body.codes, notes: body.notes ?? null };
}

export const sandboxHandlers: { readonly [Id in SandboxEndpointId]: SandboxHandler<SandboxBody<Id>> } = {
  sandboxApprove: control('approve'),
  sandboxReject: control('reject', rejection),
  sandboxWithdraw: control('withdraw'),
  sandboxDeliver: control('deliver'),
  sandboxGoLive: control('go_live'),
  sandboxTakeDown: control('take_down'),
};

/** The reason code and note of an automatic rejection, so a pipeline can tell it from a real one. */
export const AUTO_REJECT_REVIEW: Review = {
  codes: ['sandbox_auto_reject'],
  notes: 'Rejected automatically by the sandbox (auto-review); no one looked at this release.',
};

/** At submit: records when the sandbox reviews the release by itself (or nothing, when it does not). */
export function scheduleAutoReview(deps: ServerDeps, r: Release, now: Date): void {
  const auto = deps.sandbox ? deps.sandboxAutoReview : undefined;
  if (!auto) {
    delete r.data.auto_review;
    return;
  }
  r.data.auto_review = { outcome: auto.outcome, due_at: new Date(now.getTime() + auto.delayMs).toISOString() };
}

const OUTCOME_STEPS: Record<SandboxAutoReview['outcome'], Exclude<Transition, 'submit'>[]> = {
  approve: ['approve'],
  reject: ['reject'],
  live: ['approve', 'deliver', 'go_live'],
};

const nextDueByUser = new WeakMap<CommitWatch, () => Map<number, string | null>>();

/**
 * When the user's next auto-review falls due. Runs before every request of a sandbox user, so it
 * is kept per user until the next commit (a submit, a settled review, another process's write);
 * time moving on needs no look, as the caller compares it with the clock.
 */
export function nextReviewDue(deps: ServerDeps, userId: number): string | null {
  const commits = deps.commits;
  if (!commits) return nextAutoReviewDue(deps.db, userId);
  let byUser = nextDueByUser.get(commits);
  if (!byUser) {
    byUser = commits.memo(() => new Map<number, string | null>());
    nextDueByUser.set(commits, byUser);
  }
  const known = byUser();
  let next = known.get(userId);
  if (next === undefined) {
    next = nextAutoReviewDue(deps.db, userId);
    known.set(userId, next);
  }
  return next;
}

/**
 * Moves along every release of the user whose auto-review is due, as the manual controls would,
 * dated when the review was due (not when someone happened to look). The outcome is the one
 * recorded at submit, so a server started without the option still completes a pending review.
 */
export function settleDueReviews(deps: ServerDeps, userId: number): void {
  if (!deps.sandbox) return;
  const nowIso = deps.now().toISOString();
  const next = nextReviewDue(deps, userId);
  if (next === null || next > nowIso) return;
  const due = dueAutoReviews(deps.db, userId, nowIso);
  if (due.length === 0) return;
  deps.db
    .transaction(() => {
      for (const id of due) {
        // Read again under the write lock: another process may have settled it meanwhile.
        const r = findRelease(deps.db, userId, id);
        const pending = r?.data.auto_review;
        if (!r || !pending || r.row.status !== 'in_review' || pending.due_at > nowIso) continue;
        for (const step of OUTCOME_STEPS[pending.outcome]) {
          applyControl(deps.db, autoReviewActor, r, step, pending.due_at, step === 'reject' ? AUTO_REJECT_REVIEW : undefined);
        }
      }
    })
    .immediate();
}
