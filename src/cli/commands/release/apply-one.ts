// `release apply` for one release: find it by catalog number, plan (src/cli/apply/plan.ts), and
// carry the plan out step by step. Every write carries a deterministic Idempotency-Key (the
// catalog number, the step and a hash of the body), so a re-run after a kill replays what the
// service already did instead of doing it twice. Nothing is ever deleted, also not on failure:
// a half-done draft is found by its catalog number and completed by the next run. Runs of one
// catalog may overlap: every release write carries If-Match of a read that shows the release as
// this run last saw it (else it is planned again), uploads are shared (one address per release,
// track and sha256, its bytes taken once), and a failure is judged against the release read
// again: where this run wanted it, the line is `converged`.
import { createHash } from 'node:crypto';
import { basename } from 'node:path';
import {
  ApiError,
  callIfChanged,
  hashFile,
  uploadArtworkFile,
  uploadTrackFile,
  type ApiClient,
  type PartsSettings,
  type UploadProgress,
} from '../../../client/index.js';
import type { EntityId, Problem, ReleaseResource, ReleaseStatus } from '../../../contract/index.js';
import { matchByCatalogNumber, normaliseCatalogNumber } from '../../apply/catalog-key.js';
import type { ApplyItem } from '../../apply/collect.js';
import { readDesired } from '../../apply/desired.js';
import {
  EDITABLE_STATUSES,
  StoredAudioMissing,
  StoredCoverMissing,
  contentMatches,
  planRelease,
  type ApplyPlan,
  type Change,
  type DesiredRelease,
  type ExistingRelease,
} from '../../apply/plan.js';
import type { ApplyOutcome, ReportLine } from '../../apply/report.js';
import { describeError } from '../../describe-error.js';
import { UsageError } from '../../errors.js';
import { isStaleWrite, readTrackList } from '../../shared/track-list-write.js';
import { catalogNumberHolder } from './catalog-taken.js';
import { statusWords } from '../../shared/release-views.js';
import type { PartUploads } from '../../output/run-progress.js';

export interface ApplyOneOptions {
  submit: boolean;
  signal: AbortSignal;
  /** The account's releases by catalog key, listed once at the start (see indexCatalog), or none. */
  known?: ReadonlyMap<string, ReleaseResource[]> | undefined;
  /** A track's title when its release file gives none (from the file's tags, else its name). */
  titleOf(path: string): Promise<string>;
  /** The run goes to the embedded sandbox (said on every report line). */
  sandbox: boolean;
  /** Told what this release uploads and how far each file is (the run's progress line). */
  uploads?: PartUploads | undefined;
  /** How a track's file goes up (in parts above one part's size, with its checkpoint: shared/upload-settings.ts). */
  partsOf?: ((path: string) => PartsSettings) | undefined;
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
  constructor(
    readonly step: string,
    readonly inner: unknown,
  ) {
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
    : await step('reading the audio files', () =>
        readDesired(item.plan, { hashFile: async (p) => (await hashFile(p, undefined, options.signal)).sha256, titleOf: options.titleOf }),
      );
  try {
    return { item, desired, existing, plan: planRelease(desired, existing, { submit: options.submit }) };
  } catch (err) {
    // A file problem only the service's tracks reveal: said in the file's terms, as collect.ts does.
    if (err instanceof StoredAudioMissing || err instanceof StoredCoverMissing)
      throw new UsageError(`${item.file}: ${err.message}`, 'or export the release again (`reldist release export`)');
    throw err;
  }
}

async function findExisting(
  client: ApiClient,
  catalogNumber: string,
  known: ApplyOneOptions['known'],
  o: { full?: boolean } = {},
): Promise<ExistingRelease | undefined> {
  const candidates = known
    ? (known.get(normaliseCatalogNumber(catalogNumber)) ?? [])
    : (await client.call('listReleases', { query: { catalog_number: catalogNumber.trim() } })).data;
  const match = matchByCatalogNumber(catalogNumber, candidates);
  if (match.kind === 'none') return undefined;
  if (match.kind === 'ambiguous') throw new Error(match.message);
  // In review or further on, apply only reports it: the list's entry says all the plan needs.
  if (!o.full && !EDITABLE_STATUSES.includes(match.release.status)) return { release: match.release, tracks: [] };
  return readExisting(client, match.release.id);
}

async function readExisting(client: ApiClient, id: EntityId): Promise<ExistingRelease> {
  const release = await client.call('getRelease', { params: { releaseId: id } });
  return { release, tracks: release.tracks ?? [] };
}

const CREATE_STEP = 'creating the release';

/** Times a release is planned again because someone else wrote it meanwhile, before giving up. */
const MOVES = 5;

/** Re-plans after a failure whose cause may have passed (a lost answer, another run's write): at most this many times. */
const RECOVERY_ROUNDS = 3;

/** What exists of a release as its steps go; the caller may hold it to say where an interrupted one stood. */
export function newApplyState(): State {
  return { releaseId: null, status: null, seen: null, problems: [], reread: false, createSent: false, desired: null };
}

/** Plans and applies one release; never throws (a failure is the line's outcome). */
export async function applyOne(client: ApiClient, item: ApplyItem, options: ApplyOneOptions, state: State = newApplyState()): Promise<ReportLine> {
  let action: ReportLine['action'] = 'create';
  // A converged line says what this run set out to do (its first plan), not the re-plan's skip.
  let firstAction: ReportLine['action'] | undefined;
  const line = (outcome: ApplyOutcome, error: ReportLine['error'] = null): ReportLine => ({
    file: item.file,
    catalog_number: item.catalogNumber.trim(),
    release_id: state.releaseId,
    action: outcome === 'converged' ? (firstAction ?? action) : action,
    outcome,
    status: state.status,
    problems: state.problems,
    error,
    sandbox: options.sandbox,
  });
  try {
    let planned = await planOne(client, item, options);
    state.desired = planned.desired;
    let moves = 0;
    let recoveries = 0;
    // A create whose answer was lost made the release found again: the line still says create.
    let createdHere = false;
    // A create that finds the number taken (another run, or a lost answer) adopts that release: once.
    // A release someone else wrote after this run read it: planned again, up to MOVES times.
    for (let round = 0; ; round++) {
      const { plan } = planned;
      action = createdHere ? 'create' : plan.action;
      firstAction ??= action;
      state.releaseId = plan.releaseId ?? null;
      state.status = plan.status ?? null;
      state.seen = planned.existing?.release ?? null;
      state.reread = false;
      if (plan.action === 'skip') {
        // Planned again (another run wrote it meanwhile) and found where this run wanted it: nothing failed.
        const reached = round > 0 && planned.existing !== undefined && wantedReached(planned.desired, planned.existing, options);
        return line(reached ? 'converged' : 'skipped', null);
      }
      try {
        await carryOut(client, planned, options, state);
        if (plan.submit) return line('submitted');
        return line(action === 'create' ? 'created' : action === 'update' ? 'updated' : 'unchanged');
      } catch (err) {
        if (err instanceof Blocked) return line('blocked');
        if (err instanceof Moved && moves < MOVES) {
          moves++;
          const existing = await step('reading the release again', () => readExisting(client, need(state)));
          planned = { ...planned, existing, plan: planRelease(planned.desired, existing, { submit: options.submit }) };
          continue;
        }
        const failed =
          err instanceof Moved
            ? new StepError(err.step, new Error(`the release kept changing while this run wrote it (${MOVES} times: someone else is changing it)`))
            : err;
        const holder = failed instanceof StepError ? catalogNumberHolder(failed.inner) : undefined;
        if (holder && round === 0) {
          const existing = await step('reading the release that holds the catalog number', () => readExisting(client, holder.releaseId));
          planned = { ...planned, existing, plan: planRelease(planned.desired, existing, { submit: options.submit }) };
          continue;
        }
        if (options.signal.aborted) throw failed;
        // Before reporting a failure: what is the release like now? Another run may have brought it
        // where this one wanted it, or the failed write was done and only its answer was lost.
        const now = await reread(client, item, state);
        if (now === undefined) throw failed;
        if (now.release !== null && wantedReached(planned.desired, now.release, options)) {
          if (!answerLost(failed)) return line('converged');
          // This run's own write was done, only its answer lost: the line says what this run did.
          if (options.submit) return line(failed instanceof StepError && failed.step === 'submitting' ? 'submitted' : 'converged');
          return line(action === 'create' ? 'created' : 'updated');
        }
        if (recoveries < RECOVERY_ROUNDS && mayHavePassed(failed) && (now.release === null || EDITABLE_STATUSES.includes(now.release.release.status))) {
          recoveries++;
          if (failed instanceof StepError && failed.step === CREATE_STEP && answerLost(failed) && now.release !== null) createdHere = true;
          planned = {
            ...planned,
            existing: now.release ?? undefined,
            plan: planRelease(planned.desired, now.release ?? undefined, { submit: options.submit }),
          };
          continue;
        }
        throw failed;
      }
    }
  } catch (err) {
    return line('failed', failure(err, state));
  }
}

/**
 * The release as it is now, read again by id (or by catalog number when no id is known yet); the
 * state is updated with what was read. `release: null`: none holds the catalog number. Undefined
 * when it could not be read (the failure is then reported with what was last known).
 */
async function reread(client: ApiClient, item: ApplyItem, state: State): Promise<{ release: ExistingRelease | null } | undefined> {
  try {
    const release =
      state.releaseId !== null ? await readExisting(client, state.releaseId) : await findExisting(client, item.catalogNumber, undefined, { full: true });
    state.reread = true;
    state.releaseId = release?.release.id ?? null;
    state.status = release?.release.status ?? null;
    state.seen = release?.release ?? null;
    return { release: release ?? null };
  } catch {
    return undefined;
  }
}

/**
 * Whether the release, as read again, is where this run wanted it: in review or further on when
 * it was to be submitted; otherwise holding what the file wants (whatever its status).
 */
function wantedReached(desired: DesiredRelease, now: ExistingRelease, options: ApplyOneOptions): boolean {
  if (options.submit && !EDITABLE_STATUSES.includes(now.release.status)) return true;
  return !options.submit && contentMatches(desired, now);
}

/** No answer came from the service (network, timeout) or a 5xx: the request may have been carried out. */
function answerLost(err: unknown): boolean {
  const inner = err instanceof StepError ? err.inner : err;
  return !(inner instanceof ApiError && inner.status < 500);
}

/**
 * A failure that may not happen again on a fresh plan: an answer lost (network, 5xx), or a write
 * that met another run's (409 state or key in progress, 412 stale). A refusal of the request itself
 * (400, 422…) would only be refused again.
 */
function mayHavePassed(err: unknown): boolean {
  const inner = err instanceof StepError ? err.inner : err;
  if (!(inner instanceof ApiError)) return true;
  if (inner.status === 409) return inner.code !== 'catalog_number_taken' && inner.code !== 'codes_exhausted';
  return inner.status >= 500 || inner.status === 412 || inner.status === 429;
}

function need(state: State): EntityId {
  if (state.releaseId === null) throw new Error('no release to read again');
  return state.releaseId;
}

/** What exists on the service as the steps go, for the report and for a failure's message. */
export interface State {
  releaseId: EntityId | null;
  status: ReleaseStatus | null;
  /** The release as this run last read or wrote it: a write goes ahead only while the service still has it so (If-Match). */
  seen: ReleaseResource | null;
  problems: Problem[];
  /** releaseId and status were read again after a failure (not what the last answer said). */
  reread: boolean;
  /** The create request was sent (its answer may have been lost). */
  createSent: boolean;
  /** What the file wants, once read (for the apply state: fileDigests). */
  desired: DesiredRelease | null;
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
  const saved = (r: ReleaseResource) => {
    state.status = r.status;
    state.seen = r;
  };
  // Compare-and-set: a write to the release carries the ETag of a read that still shows the
  // release as this run last saw it (its plan's read, or its own last write's answer); anything
  // else means another run or person wrote in between, and the release is planned again.
  const currentTag = async (before: string): Promise<string | undefined> => {
    const res = await step(`reading the release before ${before}`, () =>
      callIfChanged(client, 'getRelease', { params: { releaseId: need() }, signal }, undefined),
    );
    if (!res.modified) throw new StepError(`reading the release before ${before}`, new Error('the service answered 304 to a read without If-None-Match'));
    if (state.seen !== null && JSON.stringify(res.body) !== JSON.stringify(state.seen)) throw new Moved(before);
    state.seen = res.body;
    return res.etag;
  };
  const conditional = (tag: string | undefined) => (tag ? { headers: { 'if-match': tag } } : {});
  const write = async <T>(name: string, fn: () => Promise<T>): Promise<T> => {
    try {
      return await fn();
    } catch (err) {
      if (isStaleWrite(err)) throw new Moved(name);
      throw err instanceof Blocked ? err : new StepError(name, err);
    }
  };
  const uploads = options.uploads;
  uploads?.planned(
    plan.changes.flatMap((c) =>
      c.kind === 'upload' ? c.trackIndexes.map((i) => item.plan.tracks[i]!.path) : c.kind === 'artwork' ? [item.plan.artwork!.path] : [],
    ),
  );
  const progressOf = (path: string) => (p: UploadProgress) => {
    if (p.phase === 'upload') uploads?.sent(path, p.bytes);
  };
  for (const change of plan.changes) await runChange(change);

  async function runChange(change: Change): Promise<void> {
    switch (change.kind) {
      case 'metadata':
        if (change.op === 'create') {
          const body = change.body;
          state.createSent = true;
          const created = await step(CREATE_STEP, () => client.call('createRelease', { body, idempotencyKey: key('create', body), signal }));
          state.releaseId = created.id;
          saved(created);
        } else {
          const body = change.body;
          const tag = await currentTag('saving the metadata');
          saved(
            await write('saving the metadata', () =>
              client.call('updateReleaseMetadata', {
                params: { releaseId: need() },
                body,
                idempotencyKey: key('metadata', { body, tag }),
                signal,
                ...conditional(tag),
              }),
            ),
          );
        }
        return;
      case 'upload':
        for (const i of change.trackIndexes) {
          const t = item.plan.tracks[i]!;
          const sha256 = planned.desired.audioSha256[i]!;
          // Shared with other runs of the same catalog: one address per (release, track, audio), its bytes taken once.
          // The file's name is part of the request (and of its content type): a renamed file asks afresh.
          const shared = { idempotencyKey: `${keyBase}:upload:${String(need())}:${i}:${sha256}:${shortHash(basename(t.path)).slice(0, 12)}`, sha256 };
          const parts = options.partsOf?.(t.path);
          const res = await step(`uploading ${t.written}`, () =>
            uploadTrackFile(client, need(), t.path, { signal, shared, parts, onProgress: progressOf(t.path) }),
          );
          uploads?.uploaded(t.path);
          fileKeys.set(i, res.key);
        }
        return;
      case 'tracks': {
        const body = change.buildBody(fileKeys);
        // Written only over the list the plan was made from (its own ETag, If-Match).
        const fresh = await step('reading the tracks before changing them', () => readTrackList(client, need(), signal));
        if (JSON.stringify(fresh.tracks) !== JSON.stringify(state.seen?.tracks ?? [])) throw new Moved('attaching the tracks');
        const etag = fresh.etag;
        saved(
          await write('attaching the tracks', () =>
            client.call('replaceReleaseTracks', {
              params: { releaseId: need() },
              body,
              idempotencyKey: key('tracks', { body, etag }),
              signal,
              ...conditional(etag),
            }),
          ),
        );
        return;
      }
      case 'artwork': {
        const cover = item.plan.artwork!;
        // Its sha256 declared: the service takes these bytes only. Set over the release as this run last saw it (If-Match).
        const res = await step(`uploading ${cover.written}`, () =>
          uploadArtworkFile(client, need(), cover.path, { signal, sha256: change.sha256, onProgress: progressOf(cover.path) }),
        );
        uploads?.uploaded(cover.path);
        const body = { artwork: { file_key: res.key } };
        const tag = await currentTag('setting the cover');
        saved(
          await write('setting the cover', () =>
            client.call('updateReleaseMetadata', {
              params: { releaseId: need() },
              body,
              idempotencyKey: key('artwork', { body, tag }),
              signal,
              ...conditional(tag),
            }),
          ),
        );
        return;
      }
      case 'delivery': {
        const body = change.body;
        const tag = await currentTag('saving the delivery settings');
        saved(
          await write('saving the delivery settings', () =>
            client.call('updateReleaseDelivery', {
              params: { releaseId: need() },
              body,
              idempotencyKey: key('delivery', { body, tag }),
              signal,
              ...conditional(tag),
            }),
          ),
        );
        return;
      }
      case 'video': {
        const body = change.body;
        const tag = await currentTag('saving the video settings');
        saved(
          await write('saving the video settings', () =>
            client.call('updateReleaseVideo', {
              params: { releaseId: need() },
              body,
              idempotencyKey: key('video', { body, tag }),
              signal,
              ...conditional(tag),
            }),
          ),
        );
        return;
      }
      case 'submit': {
        // Keyed by the release's tag: a fixed release submits afresh, a retry (or another run of the same state) replays.
        const tag = await currentTag('submitting');
        const res = await write('submitting', async () => {
          try {
            return await client.call('submitRelease', {
              params: { releaseId: need() },
              body: {},
              idempotencyKey: key('submit', { id: need(), tag }),
              signal,
              ...conditional(tag),
            });
          } catch (err) {
            if (!(err instanceof ApiError && err.code === 'submit_blocked')) throw err;
            state.problems = err.problems ?? [];
            throw new Blocked();
          }
        });
        saved(res.release);
        state.problems = res.problems ?? [];
        return;
      }
    }
  }
}

/** The submit checks said no: the release stays a draft, its problems in the report. */
class Blocked extends Error {}

/** The release changed after this run read it (someone else wrote it): plan it again. */
class Moved extends Error {
  constructor(readonly step: string) {
    super(step);
  }
}

async function step<T>(name: string, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    throw err instanceof StepError || err instanceof Blocked || err instanceof Moved ? err : new StepError(name, err);
  }
}

function shortHash(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex').slice(0, 32);
}

/** The report's error: the step, what exists now (read again when it could be), and what to run next. */
function failure(err: unknown, state: State): { code: string; message: string } {
  const inner = err instanceof StepError ? err.inner : err;
  const d = describeError(inner, { debug: false });
  const where = err instanceof StepError ? `${err.step} failed: ` : '';
  let now: string;
  if (state.releaseId === null) {
    if (state.reread) now = 'no release holds the catalog number';
    else now = state.createSent ? 'whether the release was created is not known (the catalog number could not be looked up again)' : 'nothing was created';
  } else if (state.reread) now = `release ${String(state.releaseId)} is ${statusWords(state.status ?? 'draft')}`;
  else now = `release ${String(state.releaseId)} was last seen ${statusWords(state.status ?? 'draft')} (it could not be read again)`;
  return { code: d.code, message: `${where}${d.message}; ${now}; run \`reldist release apply\` again to resume` };
}
