// `release apply` for one release: find it by catalog number, plan (src/cli/apply/plan.ts), and
// carry the plan out step by step. Every write carries a deterministic Idempotency-Key (the
// catalog number, the step and a hash of the body), so a re-run after a kill replays what the
// service already did instead of doing it twice. Nothing is ever deleted, also not on failure:
// a half-done draft is found by its catalog number and completed by the next run.
import { createHash } from 'node:crypto';
import { ApiError, hashFile, uploadTrackFile, type ApiClient } from '../../../client/index.js';
import type { EntityId, Problem, ReleaseResource, ReleaseStatus } from '../../../contract/index.js';
import { matchByCatalogNumber, normaliseCatalogNumber } from '../../apply/catalog-key.js';
import type { ApplyItem } from '../../apply/collect.js';
import { readDesired } from '../../apply/desired.js';
import { EDITABLE_STATUSES, planRelease, type ApplyPlan, type Change, type DesiredRelease, type ExistingRelease } from '../../apply/plan.js';
import type { ApplyOutcome, ReportLine } from '../../apply/report.js';
import { describeError } from '../../describe-error.js';
import { isStaleWrite, readTrackList } from '../../shared/track-list-write.js';
import { catalogNumberHolder } from './catalog-taken.js';
import { statusWords } from '../../shared/release-views.js';

export interface ApplyOneOptions {
  submit: boolean;
  signal: AbortSignal;
  /** The account's releases by catalog key, listed once at the start (see indexCatalog), or none. */
  known?: ReadonlyMap<string, ReleaseResource[]> | undefined;
  /** A track's title when its release file gives none (from the file's tags, else its name). */
  titleOf(path: string): Promise<string>;
  /** The run goes to the embedded sandbox (said on every report line). */
  sandbox: boolean;
}

/** Releases a page of the list holds at most (the contract's perPage bound). */
const LIST_PAGE = 100;

/**
 * The account's releases by catalog key, when listing them all costs fewer requests than looking
 * each item up (a large catalog applied again: one request per 100 releases instead of one per
 * release); otherwise undefined, and each item asks for its own catalog number. A release made
 * after the listing (another run) is still found: its create answers 409 and is adopted.
 */
export async function indexCatalog(client: ApiClient, items: number): Promise<Map<string, ReleaseResource[]> | undefined> {
  if (items < LIST_PAGE / 10) return undefined;
  const first = await client.call('listReleases', { query: { perPage: LIST_PAGE, page: 1 } });
  if (first.meta.total_pages > items / 2) return undefined;
  const pages = [first];
  for (let page = 2; page <= first.meta.total_pages; page++) pages.push(await client.call('listReleases', { query: { perPage: LIST_PAGE, page } }));
  const index = new Map<string, ReleaseResource[]>();
  for (const r of pages.flatMap((p) => p.data)) {
    if (r.catalog_number === null) continue;
    const key = normaliseCatalogNumber(r.catalog_number);
    index.set(key, [...(index.get(key) ?? []), r]);
  }
  return index;
}

export interface Planned {
  item: ApplyItem;
  desired: DesiredRelease;
  existing: ExistingRelease | undefined;
  plan: ApplyPlan;
}

/** A failed step: which one, and what exists on the service now. */
class StepError extends Error {
  constructor(readonly step: string, readonly inner: unknown) {
    super(step);
  }
}

/** Reads the local files and the service's release, and plans. */
export async function planOne(client: ApiClient, item: ApplyItem, options: ApplyOneOptions): Promise<Planned> {
  const existing = await step('looking up the catalog number', () => findExisting(client, item.catalogNumber, options.known));
  // A release in review or further on is only reported (planRelease skips it before looking at the
  // files), so its audio is neither hashed nor parsed: a converged catalog costs one request each.
  const reportOnly = existing !== undefined && !EDITABLE_STATUSES.includes(existing.release.status);
  const desired = reportOnly
    ? { plan: item.plan, audioSha256: [], defaultTitles: [] }
    : await step('reading the audio files', () => readDesired(item.plan, { hashFile: async (p) => (await hashFile(p, undefined, options.signal)).sha256, titleOf: options.titleOf }));
  return { item, desired, existing, plan: planRelease(desired, existing, { submit: options.submit }) };
}

async function findExisting(client: ApiClient, catalogNumber: string, known: ApplyOneOptions['known']): Promise<ExistingRelease | undefined> {
  const candidates = known
    ? (known.get(normaliseCatalogNumber(catalogNumber)) ?? [])
    : (await client.call('listReleases', { query: { catalog_number: catalogNumber.trim() } })).data;
  const match = matchByCatalogNumber(catalogNumber, candidates);
  if (match.kind === 'none') return undefined;
  if (match.kind === 'ambiguous') throw new Error(match.message);
  // In review or further on, apply only reports it: the list's entry says all the plan needs.
  if (!EDITABLE_STATUSES.includes(match.release.status)) return { release: match.release, tracks: [] };
  return readExisting(client, match.release.id);
}

async function readExisting(client: ApiClient, id: EntityId): Promise<ExistingRelease> {
  const release = await client.call('getRelease', { params: { releaseId: id } });
  return { release, tracks: release.tracks ?? [] };
}

/** What exists of a release as its steps go; the caller may hold it to say where an interrupted one stood. */
export function newApplyState(): State {
  return { releaseId: null, status: null, updatedAt: null, problems: [] };
}

/** Plans and applies one release; never throws (a failure is the line's outcome). */
export async function applyOne(client: ApiClient, item: ApplyItem, options: ApplyOneOptions, state: State = newApplyState()): Promise<ReportLine> {
  let action: ReportLine['action'] = 'create';
  const line = (outcome: ApplyOutcome, error: ReportLine['error'] = null): ReportLine => ({
    file: item.file, catalog_number: item.catalogNumber.trim(), release_id: state.releaseId, action, outcome, status: state.status,
    problems: state.problems, error, sandbox: options.sandbox,
  });
  try {
    let planned = await planOne(client, item, options);
    let replanned = false;
    // A create that finds the number taken (another run, or a lost answer) adopts that release: once.
    // Tracks that someone else changed after planning: planned again, once.
    for (let round = 0; ; round++) {
      const { plan } = planned;
      action = plan.action;
      state.releaseId = plan.releaseId ?? null;
      state.status = plan.status ?? null;
      state.updatedAt = planned.existing?.release.updated_at ?? null;
      if (plan.action === 'skip') return line('skipped', null);
      try {
        await carryOut(client, planned, options, state);
        if (plan.submit) return line('submitted');
        return line(plan.action === 'create' ? 'created' : plan.action === 'update' ? 'updated' : 'unchanged');
      } catch (err) {
        if (err instanceof Blocked) return line('blocked');
        if (err instanceof TracksMoved) {
          if (replanned) throw new StepError('attaching the tracks', new Error('the tracks kept changing while they were being written (someone else is changing them)'));
          replanned = true;
          const existing = await step('reading the release again', () => readExisting(client, need(state)));
          planned = { ...planned, existing, plan: planRelease(planned.desired, existing, { submit: options.submit }) };
          continue;
        }
        const holder = err instanceof StepError ? catalogNumberHolder(err.inner) : undefined;
        if (!holder || round > 0) throw err;
        const existing = await step('reading the release that holds the catalog number', () => readExisting(client, holder.releaseId));
        planned = { ...planned, existing, plan: planRelease(planned.desired, existing, { submit: options.submit }) };
      }
    }
  } catch (err) {
    return line('failed', failure(err, state.releaseId, state.status));
  }
}

function need(state: State): EntityId {
  if (state.releaseId === null) throw new Error('no release to read again');
  return state.releaseId;
}

/** What exists on the service as the steps go, for the report and for a failure's message. */
export interface State {
  releaseId: EntityId | null;
  status: ReleaseStatus | null;
  /** The release's updated_at as the last answer gave it (keys the submit). */
  updatedAt: string | null;
  problems: Problem[];
}

async function carryOut(client: ApiClient, planned: Planned, options: ApplyOneOptions, state: State): Promise<void> {
  const { item, plan } = planned;
  const keyBase = `apply:${shortHash(normaliseCatalogNumber(item.catalogNumber))}`;
  const key = (stepName: string, body: unknown) => `${keyBase}:${stepName}:${shortHash(JSON.stringify(body ?? null))}`;
  const fileKeys = new Map<number, string>();
  const signal = options.signal;
  const need = (): EntityId => {
    if (state.releaseId === null) throw new Error('no release to change (the create step did not run)');
    return state.releaseId;
  };
  const saved = (r: { status: ReleaseStatus; updated_at: string }) => {
    state.status = r.status;
    state.updatedAt = r.updated_at;
  };
  for (const change of plan.changes) await runChange(change);

  async function runChange(change: Change): Promise<void> {
    switch (change.kind) {
      case 'metadata':
        if (change.op === 'create') {
          const body = change.body;
          const created = await step('creating the release', () => client.call('createRelease', { body, idempotencyKey: key('create', body), signal }));
          state.releaseId = created.id;
          saved(created);
        } else {
          const body = change.body;
          saved(await step('saving the metadata', () => client.call('updateReleaseMetadata', { params: { releaseId: need() }, body, idempotencyKey: key('metadata', body), signal })));
        }
        return;
      case 'upload':
        for (const i of change.trackIndexes) {
          const t = item.plan.tracks[i]!;
          const res = await step(`uploading ${t.written}`, () => uploadTrackFile(client, need(), t.path, { signal, sha256: planned.desired.audioSha256[i] }));
          fileKeys.set(i, res.key);
        }
        return;
      case 'tracks': {
        const body = change.buildBody(fileKeys);
        // Written only over the list the plan was made from: someone else's change meanwhile means planning again.
        let etag: string | undefined;
        if (planned.existing) {
          const fresh = await step('reading the tracks before changing them', () => readTrackList(client, need(), signal));
          if (JSON.stringify(fresh.tracks) !== JSON.stringify(planned.existing.tracks)) throw new TracksMoved();
          etag = fresh.etag;
        }
        try {
          saved(await client.call('replaceReleaseTracks', {
            params: { releaseId: need() }, body, idempotencyKey: key('tracks', { body, etag }), signal, ...(etag ? { headers: { 'if-match': etag } } : {}),
          }));
        } catch (err) {
          if (isStaleWrite(err)) throw new TracksMoved();
          throw new StepError('attaching the tracks', err);
        }
        return;
      }
      case 'delivery': {
        const body = change.body;
        saved(await step('saving the delivery settings', () => client.call('updateReleaseDelivery', { params: { releaseId: need() }, body, idempotencyKey: key('delivery', body), signal })));
        return;
      }
      case 'video': {
        const body = change.body;
        saved(await step('saving the video settings', () => client.call('updateReleaseVideo', { params: { releaseId: need() }, body, idempotencyKey: key('video', body), signal })));
        return;
      }
      case 'submit': {
        // Keyed by the release's state as the last answer left it: a fixed release submits afresh, a retry replays.
        const version = state.updatedAt ?? (await step('reading the release before submitting', () => client.call('getRelease', { params: { releaseId: need() } }))).updated_at;
        try {
          const res = await client.call('submitRelease', {
            params: { releaseId: need() }, body: {}, idempotencyKey: key('submit', `${String(need())}:${version}`), signal,
          });
          saved(res.release);
          state.problems = res.problems ?? [];
        } catch (err) {
          if (err instanceof ApiError && err.code === 'submit_blocked') {
            state.problems = err.problems ?? [];
            throw new Blocked();
          }
          throw new StepError('submitting', err);
        }
        return;
      }
    }
  }
}

/** The submit checks said no: the release stays a draft, its problems in the report. */
class Blocked extends Error {}

/** The release's tracks changed after it was planned (someone else wrote them): plan it again. */
class TracksMoved extends Error {}

async function step<T>(name: string, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    throw err instanceof StepError || err instanceof Blocked || err instanceof TracksMoved ? err : new StepError(name, err);
  }
}

function shortHash(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex').slice(0, 32);
}

/** The report's error: the step, what exists now, and what to run next. */
function failure(err: unknown, releaseId: EntityId | null, status: ReleaseStatus | null): { code: string; message: string } {
  const inner = err instanceof StepError ? err.inner : err;
  const d = describeError(inner, { debug: false });
  const where = err instanceof StepError ? `${err.step} failed: ` : '';
  const now = releaseId === null ? 'no release was created' : `release ${String(releaseId)} is ${statusWords(status ?? 'draft')}`;
  return { code: d.code, message: `${where}${d.message}; ${now}; run \`reldist release apply\` again to resume` };
}
