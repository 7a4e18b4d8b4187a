// One set of rules at every door: wherever a value enters (flags, release files, `release edit`,
// `track edit`, `track set`, the wizard, `release apply`), the submit's own field rules
// (src/rules: runFieldChecks) run on what was given, before anything is sent. What can never pass
// (NEVER_PASSES: a malformed UPC or ISRC, an ISRC already on another track) is refused, exit 2,
// naming the flag or file:line and the code; what the submit would block ("feat." in a title…)
// is a `warning:` line with the submit's code and words. No rule is written twice.
import { checkIsrc } from '../../codes/index.js';
import { NEVER_PASSES, runFieldChecks, type CheckedRelease, type CheckedTrack, type Problem } from '../../rules/submit-checks.js';
import type { Context } from '../context.js';
import { UsageError } from '../errors.js';
import { inCliTerms } from '../service-text.js';
import { writeStderr } from '../output/index.js';

/** What a door knows of a release; what it does not know is left out. */
export type ReleaseFields = Partial<Omit<CheckedRelease, 'delivery' | 'artwork'>> & { delivery?: Partial<CheckedRelease['delivery']> | undefined };
/** What a door knows of a track. */
export type TrackFields = Partial<Omit<CheckedTrack, 'file'>>;

/**
 * Where the door took the value at a problem's path ('title', 'tracks.0.isrc'): a flag
 * (`--upc`) or `file:line: path`; undefined for a value this door did not set (not its to judge).
 */
export type Locate = (path: string) => string | undefined;

export interface DoorCheck {
  release?: ReleaseFields | undefined;
  tracks?: readonly TrackFields[] | undefined;
  locate: Locate;
  now: Date;
}

export interface DoorFinding {
  where: string;
  problem: Problem;
}

export function releaseForChecks(f: ReleaseFields): CheckedRelease {
  return {
    title: f.title ?? '',
    label: f.label ?? '',
    genre: f.genre ?? null,
    language: f.language ?? null,
    p_line: f.p_line ?? null,
    c_line: f.c_line ?? null,
    artists: f.artists ?? [],
    upc: f.upc === undefined || f.upc === '' ? null : f.upc,
    original_release_date: f.original_release_date ?? null,
    artwork: null,
    delivery: { release_date: f.delivery?.release_date ?? null, preorder_date: f.delivery?.preorder_date ?? null },
  };
}

function trackForChecks(t: TrackFields): CheckedTrack {
  return {
    title: t.title ?? '',
    artists: t.artists ?? [],
    contributors: t.contributors ?? [],
    audio_language: t.audio_language ?? null,
    isrc: t.isrc === undefined || t.isrc === '' ? null : t.isrc,
    file: null,
  };
}

/** The field rules over what the door was given: what it must refuse, and what the submit would block. */
export function judgeAtDoor(check: DoorCheck): { refused: DoorFinding[]; blocked: DoorFinding[] } {
  const tracks = (check.tracks ?? []).map(trackForChecks);
  const problems = runFieldChecks({ release: releaseForChecks(check.release ?? {}), tracks, now: check.now });
  const refused: DoorFinding[] = [];
  const blocked: DoorFinding[] = [];
  for (const problem of problems) {
    const where = check.locate(problem.path) ?? (problem.code === 'isrc_duplicate' ? sameIsrcGivenAt(check, tracks, problem.path) : undefined);
    if (where === undefined) continue;
    if (NEVER_PASSES.has(problem.code)) refused.push({ where, problem });
    else if (problem.severity === 'error') blocked.push({ where, problem });
  }
  return { refused, blocked };
}

/**
 * The rule reports a shared ISRC on the later track; when the door set the earlier one (an edit
 * giving track 1 the ISRC of track 3), the refusal is the door's all the same.
 */
function sameIsrcGivenAt(check: DoorCheck, tracks: CheckedTrack[], path: string): string | undefined {
  const index = Number(/^tracks\.(\d+)\./.exec(path)?.[1]);
  const code = (isrc: string | null) => (isrc === null ? null : checkIsrc(isrc, { currentYear: check.now.getUTCFullYear() }).normalized);
  const shared = code(tracks[index]?.isrc ?? null);
  if (shared === null) return undefined;
  for (const [i, t] of tracks.entries()) {
    if (i === index || code(t.isrc) !== shared) continue;
    const where = check.locate(`tracks.${i}.isrc`);
    if (where !== undefined) return where;
  }
  return undefined;
}

/** `--upc: upc_invalid: the UPC … is invalid: …`: the submit's code and words, at the door's place. */
export function findingLine(f: DoorFinding): string {
  return `${f.where}: ${f.problem.code}: ${inCliTerms(f.problem.message)}`;
}

/** Refuses (exit 2) when any value can never pass; `nothing` says what was not done. */
export function refuseAtDoor(refused: readonly DoorFinding[], nothing = 'nothing was sent'): void {
  if (refused.length === 0) return;
  const lines = refused.map(findingLine);
  const hint = refused.length === 1 && refused[0]!.problem.hint ? inCliTerms(refused[0]!.problem.hint) : 'fix the values named above and run again';
  throw new UsageError(
    lines.length === 1 ? `${lines[0]}; ${nothing}` : `${lines.length} values can never pass; ${nothing}`,
    hint,
    lines.length > 1 ? lines : undefined,
  );
}

/** One `warning:` line per value the submit would block (a JSON line with --json); --quiet silences them. */
export function warnAtDoor(ctx: Context, blocked: readonly DoorFinding[]): void {
  if (ctx.globals.quiet) return;
  let out = '';
  for (const f of blocked) {
    const hint = f.problem.hint ? inCliTerms(f.problem.hint) : undefined;
    if (ctx.globals.json) {
      out += `${JSON.stringify({ warning: { where: f.where, code: f.problem.code, message: inCliTerms(f.problem.message), ...(hint ? { hint } : {}), blocks_submit: true } })}\n`;
    } else {
      out += `warning: ${findingLine(f)}; the submit will refuse it${hint ? ` (hint: ${hint})` : ''}\n`;
    }
  }
  // JSON lines stay whole; words wrap to a terminal's width.
  if (ctx.globals.json) ctx.io.stderr.write(out);
  else writeStderr(ctx, out);
}

/** The whole door: warns of what the submit would block, then refuses what can never pass. */
export function checkAtDoor(ctx: Context, check: DoorCheck, nothing?: string): void {
  const { refused, blocked } = judgeAtDoor(check);
  warnAtDoor(ctx, blocked);
  refuseAtDoor(refused, nothing);
}

/**
 * A locate for a file's values: `file:line: path` for a value the file holds (`value`, as parsed),
 * undefined for one it leaves out; `toFilePath` maps a rule's path to the file's (or undefined).
 */
export function fileLocate(
  file: string,
  value: unknown,
  lineOf: (path: (string | number)[]) => number | undefined,
  toFilePath: (path: string) => (string | number)[] | undefined,
): Locate {
  return (path) => {
    const inFile = toFilePath(path);
    if (inFile === undefined || !holds(value, inFile)) return undefined;
    const line = lineOf(inFile);
    return `${file}${line !== undefined ? `:${line}` : ''}: ${path}`;
  };
}

/** Whether the parsed value has something at the path (the first segment of it, for a rule's deeper path). */
function holds(value: unknown, path: readonly (string | number)[]): boolean {
  let node = value;
  for (const key of path) {
    if (node === null || typeof node !== 'object') return true;
    const next = (node as Record<string | number, unknown>)[key];
    if (next === undefined) return false;
    node = next;
  }
  return true;
}

/** 'tracks.0.artists.1.name' → ['tracks', 0, 'artists', 1, 'name']. */
export function pathParts(path: string): (string | number)[] {
  return path.split('.').map((s) => (/^\d+$/.test(s) ? Number(s) : s));
}
