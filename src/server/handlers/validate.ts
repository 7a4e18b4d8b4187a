// POST /releases/validate/upc and /isrc, and their batch form POST /releases/validate: the code
// engine's verdict, plus uniqueness among the caller's own releases (a UPC names one product; an
// ISRC is unique within a release). One code's verdict is built by the same two functions for
// both forms; only the look-ups differ: per code for the single forms, one query per batch for
// the batch (releases held, UPC holders, tracks), whatever its size.
// Problems carry only the contract's fields: where a code engine knows more (the position of a
// bad character, the check digit it expected, the release holding the code), it goes into the
// hint or the message, so the answer never carries fields the contract does not declare.
import type { ValidationResultData } from '../../contract/index.js';
import { checkIsrc, checkUpc, type IsrcResult, type Problem as CodeProblem, type UpcResult } from '../../codes/index.js';
import { ServiceError, type HandlerMap, type Problem } from '../handler.js';
import { parseId } from '../store/ids.js';
import { getRelease, ownedReleaseIds, releasesWithUpcs, releaseWithUpc, type UpcHolder } from '../store/releases.js';
import { listTrackRows, tracksWithIsrcOf, type TrackRow } from '../store/tracks.js';

function toWire(p: CodeProblem, path: string): Problem {
  let hint: string | undefined;
  if (p.code === 'bad_check_digit' && p.expected !== undefined) hint = `the check digit should be ${p.expected}`;
  else if (p.expected !== undefined && p.position !== undefined) hint = `character ${p.position} should be a ${p.expected}`;
  return {
    path,
    code: p.code,
    message: p.message,
    ...(hint ? { hint } : {}),
    severity: p.severity,
  };
}

/** The release holding the code, named as a person finds it: id, title, catalog number, status. */
function holderWords(h: UpcHolder): string {
  const catalog = h.catalog_number ? `${h.catalog_number}, ` : '';
  return `release ${h.id} ${JSON.stringify(h.title)} (${catalog}${h.status})`;
}

/** One UPC's verdict: the engine's, made invalid by `holder`, another release of the caller holding it. */
function upcVerdict(input: string, r: UpcResult, holder: UpcHolder | undefined, path: string): ValidationResultData {
  const problems = r.problems.map((p) => toWire(p, path));
  if (holder) {
    problems.push({
      path,
      code: 'upc_in_use',
      message: `already used by your ${holderWords(holder)}`,
      hint: 'each release needs its own UPC; leave it empty to have one assigned at submit',
      severity: 'error',
    });
  }
  return { kind: 'upc', input, valid: r.valid && !holder, normalized: r.normalized, display: r.normalized, problems };
}

/** One ISRC's verdict: the engine's, made invalid by `duplicate`, another track of the release with it. */
function isrcVerdict(input: string, r: IsrcResult, duplicate: TrackRow | undefined, path: string): ValidationResultData {
  const problems = r.problems.map((p) => toWire(p, path));
  if (duplicate) {
    problems.push({
      path,
      code: 'isrc_duplicate',
      message: `already used by track ${duplicate.id} (disc ${duplicate.disc}, position ${duplicate.position}) of release ${duplicate.release_id}`,
      hint: 'each recording on a release needs its own ISRC',
      severity: 'error',
    });
  }
  return { kind: 'isrc', input, valid: r.valid && !duplicate, normalized: r.normalized, display: r.display, problems };
}

/** Map.groupBy, which Node 20 lacks. */
function groupBy<T, K>(items: readonly T[], key: (item: T) => K): Map<K, T[]> {
  const groups = new Map<K, T[]>();
  for (const item of items) {
    const k = key(item);
    const group = groups.get(k);
    if (group) group.push(item);
    else groups.set(k, [item]);
  }
  return groups;
}

/** An id of a batch's code: as the single forms say it, then which code of the batch it is. */
function batchId(raw: string | number, what: 'release' | 'track', at: string): number {
  try {
    return parseId(raw, what);
  } catch (e) {
    throw notFoundAt(e instanceof Error ? e.message : `${what} not found`, at);
  }
}

const notFoundAt = (message: string, at: string) => new ServiceError(404, 'not_found', `${message} (${at})`);

const otherTrackWith = (tracks: readonly TrackRow[], isrc: string, trackId: number | undefined) => tracks.find((t) => t.isrc === isrc && t.id !== trackId);

export const handlers: HandlerMap = {
  validateUpc({ user, body: b }, { db }): ValidationResultData {
    const exceptId = b.release_id !== undefined ? parseId(b.release_id, 'release') : undefined;
    if (exceptId !== undefined) getRelease(db, user.id, exceptId);
    const r = checkUpc(b.upc);
    return upcVerdict(b.upc, r, r.valid ? releaseWithUpc(db, user.id, r.gtin14!, exceptId) : undefined, 'upc');
  },

  validateIsrc({ user, body: b }, deps): ValidationResultData {
    const r = checkIsrc(b.isrc, { currentYear: deps.now().getUTCFullYear() });
    let duplicate: TrackRow | undefined;
    if (b.release_id !== undefined) {
      const releaseId = parseId(b.release_id, 'release');
      getRelease(deps.db, user.id, releaseId);
      const trackId = b.track_id !== undefined ? parseId(b.track_id, 'track') : undefined;
      if (r.valid) duplicate = otherTrackWith(listTrackRows(deps.db, releaseId), r.normalized!, trackId);
    }
    return isrcVerdict(b.isrc, r, duplicate, 'isrc');
  },

  validateCodes({ user, body }, deps) {
    const { db } = deps;
    const isrcOptions = { currentYear: deps.now().getUTCFullYear() };
    const items = body.codes.map((c, i) => {
      const at = `codes.${i}`;
      const releaseId = c.release_id !== undefined ? batchId(c.release_id, 'release', `${at}.release_id`) : undefined;
      if (c.kind === 'upc') return { kind: 'upc' as const, at, input: c.code, releaseId, r: checkUpc(c.code) };
      const trackId = c.track_id !== undefined ? batchId(c.track_id, 'track', `${at}.track_id`) : undefined;
      return { kind: 'isrc' as const, at, input: c.code, releaseId, trackId, r: checkIsrc(c.code, isrcOptions) };
    });

    // The look-ups, each one query for the whole batch.
    const releaseIds = [...new Set(items.flatMap((it) => (it.releaseId === undefined ? [] : [it.releaseId])))];
    const owned = ownedReleaseIds(db, user.id, releaseIds);
    const missing = items.find((it) => it.releaseId !== undefined && !owned.has(it.releaseId));
    if (missing) throw notFoundAt(`release ${missing.releaseId} not found`, `${missing.at}.release_id`);
    const upcs = items.flatMap((it) => (it.kind === 'upc' && it.r.valid ? [it.r.gtin14!] : []));
    const holders = groupBy(releasesWithUpcs(db, user.id, [...new Set(upcs)]), (h) => h.upc_gtin14);
    const isrcReleases = [...new Set(items.flatMap((it) => (it.kind === 'isrc' && it.r.valid && it.releaseId !== undefined ? [it.releaseId] : [])))];
    const tracks = groupBy(tracksWithIsrcOf(db, isrcReleases), (t) => t.release_id);

    const data = items.map((it) => {
      const path = `${it.at}.code`;
      if (it.kind === 'upc') {
        const holder = it.r.valid ? holders.get(it.r.gtin14!)?.find((h) => h.id !== it.releaseId) : undefined;
        return upcVerdict(it.input, it.r, holder, path);
      }
      const duplicate = it.r.valid && it.releaseId !== undefined ? otherTrackWith(tracks.get(it.releaseId) ?? [], it.r.normalized!, it.trackId) : undefined;
      return isrcVerdict(it.input, it.r, duplicate, path);
    });
    return { data };
  },
};
