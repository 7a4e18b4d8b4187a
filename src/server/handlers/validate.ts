// POST /releases/validate/upc and /isrc: the code engine's verdict, plus uniqueness among the
// caller's own releases (a UPC names one product; an ISRC is unique within a release).
// Problems carry only the contract's fields: where a code engine knows more (the position of a
// bad character, the check digit it expected, the release holding the code), it goes into the
// hint or the message, so the answer never carries fields the contract does not declare.
import type { ValidationResultData } from '../../contract/index.js';
import { checkIsrc, checkUpc, type Problem as CodeProblem } from '../../codes/index.js';
import type { HandlerMap, Problem } from '../handler.js';
import { parseId } from '../store/ids.js';
import { getRelease, releaseWithUpc } from '../store/releases.js';
import { listTrackRows } from '../store/tracks.js';

function toWire(p: CodeProblem, kind: 'upc' | 'isrc'): Problem {
  let hint: string | undefined;
  if (p.code === 'bad_check_digit' && p.expected !== undefined) hint = `the check digit should be ${p.expected}`;
  else if (p.expected !== undefined && p.position !== undefined) hint = `character ${p.position} should be a ${p.expected}`;
  return {
    path: kind,
    code: p.code,
    message: p.message,
    ...(hint ? { hint } : {}),
    severity: p.severity,
  };
}

export const handlers: HandlerMap = {
  validateUpc({ user, body: b }, { db }): ValidationResultData {
    const exceptId = b.release_id !== undefined ? parseId(b.release_id, 'release') : undefined;
    if (exceptId !== undefined) getRelease(db, user.id, exceptId);
    const r = checkUpc(b.upc);
    const problems = r.problems.map((p) => toWire(p, 'upc'));
    let valid = r.valid;
    if (r.valid) {
      const other = releaseWithUpc(db, user.id, r.gtin14!, exceptId);
      if (other) {
        valid = false;
        problems.push({
          path: 'upc',
          code: 'upc_in_use',
          message: `already used by your release ${other.id} (${other.status})`,
          hint: 'each release needs its own UPC; leave it empty to have one assigned at submit',
          severity: 'error',
        });
      }
    }
    return { kind: 'upc', input: b.upc, valid, normalized: r.normalized, display: r.normalized, problems };
  },

  validateIsrc({ user, body: b }, deps): ValidationResultData {
    const r = checkIsrc(b.isrc, { currentYear: deps.now().getUTCFullYear() });
    const problems = r.problems.map((p) => toWire(p, 'isrc'));
    let valid = r.valid;
    if (b.release_id !== undefined) {
      const releaseId = parseId(b.release_id, 'release');
      getRelease(deps.db, user.id, releaseId);
      const trackId = b.track_id !== undefined ? parseId(b.track_id, 'track') : undefined;
      if (r.valid) {
        const dup = listTrackRows(deps.db, releaseId).find((t) => t.isrc === r.normalized && t.id !== trackId);
        if (dup) {
          valid = false;
          problems.push({
            path: 'isrc',
            code: 'isrc_duplicate',
            message: `already used by track ${dup.id} (disc ${dup.disc}, position ${dup.position}) of release ${releaseId}`,
            hint: 'each recording on a release needs its own ISRC',
            severity: 'error',
          });
        }
      }
    }
    return { kind: 'isrc', input: b.isrc, valid, normalized: r.normalized, display: r.display, problems };
  },
};
