// POST /releases/{releaseId}/submit and its batch form POST /releases/submit: one release's submit
// (the checks, the state change, the codes assigned) is `submitIn`, which both run inside a
// write transaction; the batch answers each release with what the single form would have.
// POST /releases/{releaseId}/withdraw takes a submit back.
import type { SubmitReleaseRequest, SubmitReleaseResponse, SubmitReleasesResult } from '../../contract/index.js';
import { ServiceError, type HandlerMap, type ServerDeps } from '../handler.js';
import { asServiceError, errorBody } from '../http/errors.js';
import { rateLimited } from '../http/rate-limit.js';
import { transition } from '../rules/state-machine.js';
import { runSubmitChecks } from '../../rules/submit-checks.js';
import { assignIsrc, assignUpc } from '../store/codes.js';
import { parseId } from '../store/ids.js';
import { getRelease, releaseWithUpc, saveRelease, toReleaseResource } from '../store/releases.js';
import { preferenceArtists } from '../store/preferences.js';
import { setTrackIsrc } from '../store/tracks.js';
import { scheduleAutoReview } from './sandbox.js';
import { requireReleaseIfMatch } from './releases.js';
import { recordSubmitted } from '../events/record.js';
import { userActor, type UserActor } from '../store/events.js';

/**
 * Checks one release and, unless it is a dry run, submits it. Must run inside an IMMEDIATE write
 * transaction: the checks and the state change see the same release, and code assignment cannot
 * race another submit of the same user.
 */
function submitIn(deps: ServerDeps, by: UserActor, id: number, b: SubmitReleaseRequest, knownActs: () => ReadonlySet<string>): SubmitReleaseResponse {
  const { db } = deps;
  const userId = by.userId;
  const r = getRelease(db, userId, id);
  // A refusal names the release's status as data: a client re-running a submit tells "already in
  // review" from other states without reading the release again.
  if (!b.dry_run) transition(r.row.status, 'submit', id);
  const now = deps.now();
  const release = toReleaseResource(db, r, true);
  const tracks = release.tracks ?? [];
  const inUse = r.row.upc_gtin14 ? releaseWithUpc(db, userId, r.row.upc_gtin14, id) : undefined;
  const problems = runSubmitChecks({ release, tracks, now, knownActs: knownActs(), ...(inUse ? { upcInUseBy: inUse } : {}) });
  const blocking = problems.filter((p) => p.severity === 'error');
  const warnings = problems.filter((p) => p.severity === 'warning');
  if (b.dry_run) {
    const message = blocking.length
      ? `Release ${id} has ${blocking.length} blocking problem(s) and ${warnings.length} warning(s).`
      : `Release ${id} is ready to submit${warnings.length ? ` (${warnings.length} warning(s))` : ''}.`;
    return { submitted: false, message, release, problems };
  }
  if (blocking.length > 0) {
    throw new ServiceError(
      422,
      'submit_blocked',
      `release ${id} cannot be submitted: ${blocking.length} blocking problem(s)${warnings.length ? ` and ${warnings.length} warning(s)` : ''}`,
      { problems },
    );
  }
  const nowIso = now.toISOString();
  const from = r.row.status;
  const assigned = { upc: r.row.upc === null ? assignUpc(db, userId) : null, isrcs: [] as { track_id: number; isrc: string }[] };
  if (assigned.upc !== null) r.row.upc = assigned.upc;
  const taken = new Set(tracks.map((t) => t.isrc).filter((x): x is string => x !== null));
  for (const t of tracks) {
    if (t.isrc !== null) continue;
    const code = assignIsrc(db, userId, now.getUTCFullYear(), taken);
    taken.add(code);
    setTrackIsrc(db, Number(t.id), code, nowIso);
    assigned.isrcs.push({ track_id: Number(t.id), isrc: code });
  }
  r.data.review = null;
  r.data.submission_notes = b.notes?.trim() || null;
  scheduleAutoReview(deps, r, now);
  saveRelease(db, r, nowIso, { status: 'in_review', submitted_at: nowIso });
  recordSubmitted(db, by, r, from, nowIso, assigned);
  const after = toReleaseResource(db, getRelease(db, userId, id), true);
  return { submitted: true, message: `Release ${id} is in review.`, release: after, problems: warnings };
}

/**
 * The account's acts (its label artists, or the artist account's own name) that names are checked
 * against, read once per request: a batch's submits change no artist.
 */
function knownActsOf(deps: ServerDeps, userId: number): () => ReadonlySet<string> {
  let acts: ReadonlySet<string> | undefined;
  return () => (acts ??= new Set(preferenceArtists(deps.db, userId).map((a) => a.name.trim().toLowerCase())));
}

export const handlers: HandlerMap = {
  submitRelease({ user, params, body, raw, requestId }, deps): SubmitReleaseResponse {
    const id = parseId(params.releaseId, 'release');
    const ifMatch = raw.req.header('if-match');
    return deps.db
      .transaction(() => {
        // Submitted only as it was read (If-Match), inside the transaction that submits it.
        if (ifMatch !== undefined) requireReleaseIfMatch(deps.db, getRelease(deps.db, user.id, id), ifMatch);
        return submitIn(deps, userActor(user, requestId), id, body, knownActsOf(deps, user.id));
      })
      .immediate();
  },

  // The owner takes a release back from review to fix it: in review → draft (the state machine's
  // withdraw), its codes kept; a sandbox's pending auto-review was for that submit and goes too.
  withdrawRelease({ user, params }, deps) {
    const id = parseId(params.releaseId, 'release');
    return deps.db
      .transaction(() => {
        const r = getRelease(deps.db, user.id, id);
        const to = transition(r.row.status, 'withdraw', id);
        delete r.data.auto_review;
        saveRelease(deps.db, r, deps.now().toISOString(), { status: to, submitted_at: null });
        return toReleaseResource(deps.db, getRelease(deps.db, user.id, id), true);
      })
      .immediate();
  },

  submitReleases({ user, body, requestId, spendMore }, deps) {
    const { release_ids: ids, ...shared } = body;
    // One request per release against the caller's rate limit (the first was taken on arrival):
    // a batch is cheaper for the service, not a way around the limit.
    const wait = spendMore(ids.length - 1);
    if (wait > 0) throw rateLimited(wait);
    const { db } = deps;
    // Each release in a savepoint of its own (better-sqlite3 nests a transaction as one), inside
    // one write transaction for the batch: a refusal rolls back only its own release's writes,
    // and the batch pays for one commit, not one per release.
    const knownActs = knownActsOf(deps, user.id);
    const by = userActor(user, requestId);
    const submitOne = db.transaction((id: number) => submitIn(deps, by, id, shared, knownActs));
    const data = db
      .transaction(() =>
        ids.map((given): SubmitReleasesResult => {
          try {
            return { release_id: given, status: 200, body: submitOne(parseId(given, 'release')) };
          } catch (e) {
            const se = asServiceError(e);
            if (se.status >= 500)
              deps.log.error('submit in a batch failed', {
                request_id: requestId,
                release_id: given,
                error: e instanceof Error ? (e.stack ?? e.message) : String(e),
              });
            return { release_id: given, status: se.status, body: errorBody(se, requestId) };
          }
        }),
      )
      .immediate();
    return { data };
  },
};
