// Loads a release file into a plan: what to create, which audio to upload for which track, and
// the settings to apply. Everything is checked here, before anything is sent.
import { stat } from 'node:fs/promises';
import { dirname, extname, relative, resolve } from 'node:path';
import type { Readable } from 'node:stream';
import type { CreateReleaseRequest, UpdateReleaseDeliveryRequest, UpdateReleaseVideoRequest } from '../../contract/index.js';
import { FileProblemsError, lineOf, locate, parseText, readInputFile, validateParsed, type LocatedProblem } from '../shared/data-file.js';
import { fileLocate, judgeAtDoor, pathParts, refuseAtDoor, type DoorFinding } from '../shared/field-checks.js';
import { type AudioRef, earlierSameAudio } from '../shared/same-audio.js';
import { AUDIO_EXTENSIONS, ReleaseFile, type ReleaseFileTrack } from './schema.js';
import { isAudioAddress } from './audio-address.js';

export interface PlannedTrack {
  /** Absolute path of the audio file ("" for audio referred to by its sha256: see `stored`). */
  path: string;
  /**
   * `file: sha256:<64 hex>`: the audio the service already has for this track, by its sha256
   * (written by `release export`). No local file: apply sees it unchanged when the service's
   * track has that audio, and has nothing to upload when it does not.
   */
  stored?: string;
  /**
   * `file: https://…`: audio `release apply` downloads (to a file of its own, then `path`) and
   * checks like any local file before it uploads it. `release apply` only.
   */
  url?: string;
  /** No `file`: the track has no audio yet; apply creates it without, and its submit waits for the audio. `release apply` only. */
  absent?: true;
  /** The path as written in the release file (for messages; a URL without its query, which may hold a signature). */
  written: string;
  /** Everything but the file; title may be missing (then tags or the file name give it). */
  fields: Omit<ReleaseFileTrack, 'file'>;
}

/** The cover image a release file names. */
export interface PlannedArtwork {
  /** Absolute path of the image ("" for a cover referred to by its sha256: see `stored`). */
  path: string;
  /** `artwork: sha256:<64 hex>`: the cover the service already has, by its sha256 (`release apply` only). */
  stored?: string;
  /** The path as written in the release file (for messages). */
  written: string;
}

export interface ReleasePlan {
  name: string;
  release: CreateReleaseRequest;
  /** `artwork: cover.jpg`: uploaded after the release exists (release.artwork is then left out). */
  artwork?: PlannedArtwork | undefined;
  tracks: PlannedTrack[];
  delivery: UpdateReleaseDeliveryRequest | undefined;
  video: UpdateReleaseVideoRequest | undefined;
  /** What the submit would block in the file's values (the submit's field rules), to be warned of. */
  warnings?: DoorFinding[];
}

const HINT = 'see docs/release-file.md for the format';

/** `--file path` (or "-" for stdin, where audio paths are relative to the working folder). */
export async function loadReleaseFile(
  path: string,
  options: { flag?: string; stdin?: Readable; cwd?: string; now?: Date; judge?: boolean; allowStored?: boolean } = {},
): Promise<ReleasePlan> {
  const flag = options.flag ?? '--file';
  const cwd = options.cwd ?? process.cwd();
  const { text } = await readInputFile(path === '-' ? '-' : resolve(cwd, path), flag, options.stdin, path);
  const shown = path === '-' ? 'stdin' : path;
  const parsed = parseText(shown, text, HINT);
  const file = validateParsed(parsed, ReleaseFile, HINT);
  const base = path === '-' ? cwd : dirname(resolve(cwd, path));

  const problems: LocatedProblem[] = [];
  const tracks: PlannedTrack[] = [];
  for (const [i, t] of (file.tracks ?? []).entries()) {
    const { file: written, ...fields } = t;
    const fieldPath = ['tracks', i, 'file'];
    if (written === undefined) {
      if (options.allowStored !== true) problems.push({ path: fieldPath, message: ABSENT_REFUSED });
      else if (fields.title === undefined) problems.push({ path: ['tracks', i], message: ABSENT_NEEDS_TITLE });
      tracks.push({ path: '', absent: true, written: '(no audio yet)', fields });
      continue;
    }
    if (isAudioAddress(written)) {
      const problem = audioUrlProblem(written) ?? (options.allowStored === true ? undefined : URL_REFUSED);
      if (problem) problems.push({ path: fieldPath, message: problem });
      tracks.push({ path: '', url: written, written: shownUrl(written), fields });
      continue;
    }
    const stored = storedAudioRef(written);
    if (stored === undefined && written.toLowerCase().startsWith(STORED_PREFIX)) {
      problems.push({ path: fieldPath, message: `expected sha256: and 64 hex digits, got "${written}"` });
      continue;
    }
    if (stored !== undefined) {
      if (options.allowStored !== true) problems.push({ path: fieldPath, message: STORED_REFUSED });
      else if (fields.title === undefined) problems.push({ path: ['tracks', i], message: STORED_NEEDS_TITLE });
      tracks.push({ path: '', stored, written, fields });
      continue;
    }
    const abs = resolve(base, written);
    const problem = await audioFileProblem(abs, written);
    if (problem) problems.push({ path: fieldPath, message: problem });
    tracks.push({ path: abs, written, fields });
  }
  let artwork: PlannedArtwork | undefined;
  if (typeof file.artwork === 'string') {
    const stored = storedAudioRef(file.artwork);
    if (stored === undefined && file.artwork.toLowerCase().startsWith(STORED_PREFIX)) {
      problems.push({ path: ['artwork'], message: `expected sha256: and 64 hex digits, got "${file.artwork}"` });
    } else if (stored !== undefined) {
      if (options.allowStored !== true) problems.push({ path: ['artwork'], message: STORED_COVER_REFUSED });
      artwork = { path: '', stored, written: file.artwork };
    } else {
      artwork = { path: resolve(base, file.artwork), written: file.artwork };
      const problem = await imageFileProblem(artwork.path, file.artwork);
      if (problem) problems.push({ path: ['artwork'], message: problem });
    }
  }
  if (problems.length === 0) problems.push(...(await sameAudioProblems(tracks)));
  if (problems.length > 0) throw new FileProblemsError(shown, locate(parsed, problems), HINT);

  const { tracks: _t, delivery, video, artwork: declared, ...rest } = file;
  // A declared cover (older files) goes to the service as it is; a file's path is uploaded instead.
  const release: CreateReleaseRequest = typeof declared === 'string' || declared === undefined ? rest : { ...rest, artwork: declared };
  // The submit's field rules on the file's own values: what can never pass stops here (unless the
  // caller runs every submit check itself: `release create --check`).
  if (options.judge === false) return { name: shown, release, artwork, tracks, delivery, video };
  const { refused, blocked } = judgeAtDoor({
    release: { ...release, delivery },
    tracks: tracks.map((t) => t.fields),
    locate: fileLocate(shown, parsed.value, (p) => lineOf(parsed, p), pathParts),
    now: options.now ?? new Date(),
  });
  refuseAtDoor(refused);
  return { name: shown, release, artwork, tracks, delivery, video, warnings: blocked };
}

/** Two tracks of one file with the same audio (same sha256): each after the first, naming the first. */
async function sameAudioProblems(tracks: readonly PlannedTrack[]): Promise<LocatedProblem[]> {
  // Audio by address is compared once downloaded (by the service's submit check); no audio yet has nothing to compare.
  const known = tracks.flatMap((t, i): { i: number; ref: AudioRef }[] =>
    t.stored !== undefined ? [{ i, ref: { sha256: t.stored } }] : t.path !== '' && !t.url && !t.absent ? [{ i, ref: { path: t.path } }] : [],
  );
  const same = await earlierSameAudio(known.map((k) => k.ref));
  return known.flatMap(({ i }, k) => {
    const earlier = same[k];
    if (earlier === undefined) return [];
    const j = known[earlier]!.i;
    const message = `track ${i + 1} (${tracks[i]!.written}) has the same audio as track ${j + 1} (${tracks[j]!.written}): a release holds each recording once`;
    return [{ path: ['tracks', i, 'file'], message }];
  });
}

/** Why an image path cannot be read, or undefined when it is a file (what it is, the check before its upload reads from its bytes, never its name). */
export async function imageFileProblem(abs: string, written: string, relativeTo = 'the release file'): Promise<string | undefined> {
  return regularFileProblem(abs, written, relativeTo);
}

/** Why a path the release file (or, `relativeTo`, a person at a prompt) names cannot be read as a file, or undefined. */
async function regularFileProblem(abs: string, written: string, relativeTo: string): Promise<string | undefined> {
  try {
    const s = await stat(abs);
    if (!s.isFile()) return `"${written}" is not a file`;
    if (s.size === 0) return `"${written}" is empty`;
  } catch {
    return `no such file: ${written} (paths are relative to ${relativeTo})`;
  }
  return undefined;
}

const STORED_PREFIX = 'sha256:';
const STORED_REFUSED =
  'sha256:… refers to audio already on the service, which only `reldist release apply` can use; give the path of the audio file to create a release';
const STORED_COVER_REFUSED =
  'sha256:… refers to a cover already on the service, which only `reldist release apply` can use; give the path of the image to create a release';
const ABSENT_REFUSED = 'required: the audio file of the track (only `reldist release apply` takes a track without audio yet)';
const ABSENT_NEEDS_TITLE = 'title: required when the track has no audio yet (there is no file to read a title from)';
const URL_REFUSED = 'an address refers to audio `reldist release apply` downloads; give the path of the audio file to create a release (or apply the file)';
const STORED_NEEDS_TITLE = 'title: required when the audio is referred to by its sha256 (there is no file to read a title from)';

/**
 * Why a track's audio address cannot be downloaded: https only, or http to this machine (a local
 * server); never with a user name or password in it.
 */
export function audioUrlProblem(written: string): string | undefined {
  let url: URL;
  try {
    url = new URL(written);
  } catch {
    return `"${shownUrl(written)}" is not an address`;
  }
  if (url.username !== '' || url.password !== '') return 'an address with a user name or password is refused: give a signed or public https address';
  if (url.protocol === 'https:') return undefined;
  if (url.protocol === 'http:' && isLoopbackHost(url.hostname)) return undefined;
  return `${shownUrl(written)}: only https addresses are downloaded (http only from this machine)`;
}

export function isLoopbackHost(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, '').toLowerCase();
  return h === 'localhost' || h === '::1' || /^127\.\d+\.\d+\.\d+$/.test(h);
}

/** An address as messages show it: without its query (a signed URL's signature) or credentials. */
export function shownUrl(written: string): string {
  try {
    const url = new URL(written);
    return `${url.protocol}//${url.host}${url.pathname}${url.search ? '?…' : ''}`;
  } catch {
    return written.replace(/[?#].*$/s, '?…');
  }
}

/** The sha256 of `file: sha256:<64 hex>` (lowercase), or undefined for a path. */
export function storedAudioRef(written: string): string | undefined {
  if (!written.toLowerCase().startsWith(STORED_PREFIX)) return undefined;
  const hex = written.slice(STORED_PREFIX.length).trim().toLowerCase();
  return /^[0-9a-f]{64}$/.test(hex) ? hex : undefined;
}

/** How a track refers to audio the service has: `file: sha256:<hex>`. */
export function storedAudioFile(sha256: string): string {
  return `${STORED_PREFIX}${sha256}`;
}

/** Why an audio path cannot be uploaded, or undefined when it looks fine. */
export async function audioFileProblem(abs: string, written: string, relativeTo = 'the release file'): Promise<string | undefined> {
  const ext = extname(abs).toLowerCase();
  if (!(AUDIO_EXTENSIONS as readonly string[]).includes(ext)) {
    return `expected a WAV, FLAC or AIFF file, got "${written}"`;
  }
  return regularFileProblem(abs, written, relativeTo);
}

/** A short form of an absolute path for messages: relative to the working folder when inside it. */
export function displayPath(abs: string, cwd = process.cwd()): string {
  const rel = relative(cwd, abs);
  return rel.startsWith('..') || rel === '' ? abs : rel;
}
