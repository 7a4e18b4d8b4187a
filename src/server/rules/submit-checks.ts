// Every check the domain design asks for at submit, run all at once: a label must never learn
// its problems one at a time. Pure: the caller gathers the facts (the release with its tracks,
// another release holding the same UPC) and decides what to do with the answer.
import type { ArtistCredit, ReleaseResource, TrackResource } from '../../contract/index.js';
import { checkIsrc, checkUpc } from '../../codes/index.js';
import type { Problem } from '../handler.js';

export interface SubmitFacts {
  release: ReleaseResource;
  tracks: TrackResource[];
  /** Another of the user's releases with the same UPC (padded comparison), if any. */
  upcInUseBy?: { id: number | string; status: string };
  /**
   * Names (trimmed, lower-case) the account has declared as one act: its label's artists, or the
   * artist account's own name. "Simon & Garfunkel" there is a duo, not two people in one entry.
   */
  knownActs?: ReadonlySet<string>;
  now: Date;
}

const GENERIC_ARTIST_NAMES = new Set(
  [
    'sleep music', 'sleep', 'sleep sounds', 'workout', 'workout music', 'relaxing music', 'relaxation', 'relax', 'study music',
    'study', 'meditation', 'meditation music', 'white noise', 'rain sounds', 'nature sounds', 'lullabies', 'baby lullaby',
    'spa', 'spa music', 'yoga', 'yoga music', 'chill', 'lofi', 'lo-fi', 'lofi beats', 'focus', 'party music', 'christmas music',
    'piano music', 'background music', 'various', 'unknown', 'unknown artist', 'artist', 'dj',
  ].map((s) => s.toLowerCase()),
);

const FEATURING_RE = /(^|[\s([{-])(feat\.?|featuring|ft\.)(\s|$)|[([]\s*ft\s/i;
const EXPLICIT_MARKER_RE = /[([]\s*(clean|explicit|dirty)\s*(version)?\s*[)\]]/i;
const MARKETING_RE = /\b(official|exclusive|original mix|album version|free download|hq|hd|new single|new song)\b/i;
const VERSION_IN_TITLE_RE = /[([][^)\]]*\b(remix|remixed|live|deluxe|remaster(ed)?|edition|version|acoustic|instrumental|radio edit|extended mix)\b[^)\]]*[)\]]/i;
const GENERIC_TITLE_RE = /^(track|untitled|title|audio track)\s*(no\.?\s*|#\s*)?\d*$/i;
// Several people in one entry. Collaboration markers ("A / B", "A x B", "A vs. B", "A; B",
// "A feat. B", "A with B") always are. "&" and "," also join the names of one act ("Simon &
// Garfunkel", "Earth, Wind & Fire", "Tyler, The Creator"), which no pattern can tell from two
// people, so such a name passes only when the account knows it as one act (knownActs).
const COLLABORATION_RE = /;|\s\/\s|\sx\s|\svs\.?\s|\s(feat\.?|ft\.|featuring|with)\s/i;
const JOINED_NAMES_RE = /\s&\s|,/;
const EMOJI_RE = /\p{Extended_Pictographic}/u;

const SAMPLE_RATE_MIN = 44_100;
const BIT_DEPTH_MIN = 16;
const DURATION_MIN_MS = 30_000;
const RELEASE_LEAD_DAYS = 7;
const MANY_PRIMARIES = 4;

export function runSubmitChecks(facts: SubmitFacts): Problem[] {
  const out: Problem[] = [];
  const error = (path: string, code: string, message: string, hint?: string) =>
    out.push({ path, code, message, ...(hint ? { hint } : {}), severity: 'error' });
  const warn = (path: string, code: string, message: string, hint?: string) =>
    out.push({ path, code, message, ...(hint ? { hint } : {}), severity: 'warning' });

  const r = facts.release;
  const currentYear = facts.now.getUTCFullYear();

  // Required fields.
  const required: [string, unknown, string][] = [
    ['title', r.title, 'a title'],
    ['label', r.label, 'a label'],
    ['genre', r.genre, 'a genre (see the genres lookup)'],
    ['language', r.language, 'the metadata language (see the languages lookup)'],
    ['p_line', r.p_line, 'a ℗ line {year, owner}: who owns the sound recording'],
    ['c_line', r.c_line, 'a © line {year, owner}: who owns the artwork and text'],
    ['delivery.release_date', r.delivery.release_date, 'a release date (PATCH …/delivery)'],
  ];
  for (const [path, value, what] of required) {
    if (value === null || value === undefined || value === '') error(path, 'required', `${path} is missing`, `Set ${what}.`);
  }

  // Titles.
  checkTitle(r.title, 'title', error, warn);

  // Artists of the release.
  const knownActs = facts.knownActs ?? new Set<string>();
  checkArtists(r.artists, 'artists', knownActs, error, warn);
  const primaries = r.artists.filter((a) => a.role === 'primary').length;
  if (primaries >= MANY_PRIMARIES) {
    warn('artists', 'many_primary_artists', `${primaries} primary artists on one release`, 'Stores often show releases with four or more primaries as "Various Artists"; consider featuring roles.');
  }

  // UPC.
  if (r.upc !== null) {
    const u = checkUpc(r.upc);
    if (!u.valid) {
      error('upc', 'upc_invalid', `the UPC ${r.upc} is invalid: ${u.problems.map((p) => p.message).join('; ')}`, 'Fix the code, or clear it to have one assigned at submit.');
    } else if (facts.upcInUseBy) {
      error('upc', 'upc_in_use', `the UPC ${r.upc} is already used by your release ${facts.upcInUseBy.id} (${facts.upcInUseBy.status})`, 'Each release needs its own UPC; clear it to have one assigned.');
    }
  }

  // Dates.
  const releaseDate = r.delivery.release_date;
  if (releaseDate) {
    if (r.delivery.preorder_date && r.delivery.preorder_date >= releaseDate) {
      error('delivery.preorder_date', 'preorder_not_before_release', `the preorder date ${r.delivery.preorder_date} is not before the release date ${releaseDate}`, 'Move the preorder date earlier, or remove it.');
    }
    if (r.original_release_date && r.original_release_date > releaseDate) {
      error('original_release_date', 'original_release_after_release', `the original release date ${r.original_release_date} is after the release date ${releaseDate}`, 'The original release date is when it first came out: on or before the release date.');
    }
    const days = Math.floor((Date.parse(`${releaseDate}T00:00:00Z`) - Date.parse(`${facts.now.toISOString().slice(0, 10)}T00:00:00Z`)) / 86_400_000);
    if (days < RELEASE_LEAD_DAYS) {
      warn('delivery.release_date', 'release_date_soon', days < 0 ? `the release date ${releaseDate} is in the past` : `the release date ${releaseDate} is ${days} day${days === 1 ? '' : 's'} away`, `Stores need at least ${RELEASE_LEAD_DAYS} days (more for editorial pitching); the release may go live late.`);
    }
  }

  // Artwork, where there is one.
  if (r.artwork) {
    const a = r.artwork;
    if (a.width !== a.height) error('artwork', 'artwork_not_square', `the artwork is ${a.width}×${a.height}; it must be square`);
    if (Math.min(a.width, a.height) < 3000) error('artwork', 'artwork_too_small', `the artwork is ${a.width}×${a.height}; it must be at least 3000×3000`);
    if (a.format !== 'jpg' && a.format !== 'png') error('artwork.format', 'artwork_format', `the artwork is ${a.format}; it must be JPG or PNG`);
    if (a.color_space !== 'rgb') error('artwork.color_space', 'artwork_color_space', `the artwork is ${a.color_space}; it must be RGB`);
  }

  // Tracks.
  if (facts.tracks.length === 0) error('tracks', 'no_tracks', 'the release has no tracks', 'Upload audio and add tracks with PUT /releases/{id}/tracks.');
  const isrcSeen = new Map<string, number>();
  facts.tracks.forEach((t, i) => {
    const p = `tracks.${i}`;
    checkTitle(t.title, `${p}.title`, error, warn);
    checkArtists(t.artists, `${p}.artists`, knownActs, error, warn);
    if (!t.contributors.some((c) => c.role === 'composer')) {
      error(`${p}.contributors`, 'composer_missing', `track ${i + 1} "${t.title}" has no composer`, 'Add at least one contributor with role composer.');
    }
    if (t.audio_language !== null && t.audio_language !== 'instrumental' && !t.contributors.some((c) => c.role === 'lyricist')) {
      warn(`${p}.contributors`, 'lyricist_missing', `track ${i + 1} "${t.title}" has lyrics (${t.audio_language}) but no lyricist`, 'Add a lyricist, or set audio_language to "instrumental".');
    }
    for (const c of t.contributors) checkName(c.name, `${p}.contributors`, warn);

    if (t.isrc !== null) {
      const res = checkIsrc(t.isrc, { currentYear });
      if (!res.valid) {
        error(`${p}.isrc`, 'isrc_invalid', `the ISRC ${t.isrc} is invalid: ${res.problems.filter((x) => x.severity === 'error').map((x) => x.message).join('; ')}`, 'Fix the code, or clear it to have one assigned at submit.');
      } else {
        for (const w of res.problems) if (w.severity === 'warning') warn(`${p}.isrc`, `isrc_${w.code}`, w.message);
        const first = isrcSeen.get(res.normalized!);
        if (first !== undefined) {
          error(`${p}.isrc`, 'isrc_duplicate', `track ${i + 1} has the same ISRC ${res.normalized} as track ${first + 1}`, 'Each recording on a release needs its own ISRC.');
        } else {
          isrcSeen.set(res.normalized!, i);
        }
      }
    }

    const f = t.file;
    if (!f || f.state !== 'ready') {
      error(`${p}.file`, 'track_file_missing', `track ${i + 1} "${t.title}" has no ready audio file`, 'Upload the audio (POST …/tracks/upload-url) and attach its key.');
    } else {
      if (f.channels !== 2) error(`${p}.file`, 'audio_not_stereo', `track ${i + 1} audio has ${f.channels} channel(s); it must be stereo`);
      if (f.sample_rate < SAMPLE_RATE_MIN || f.bit_depth < BIT_DEPTH_MIN) {
        error(`${p}.file`, 'audio_quality_too_low', `track ${i + 1} audio is ${f.bit_depth} bit / ${f.sample_rate} Hz; it must be at least 16 bit / 44.1 kHz`);
      }
      if (f.duration_ms < DURATION_MIN_MS) error(`${p}.file`, 'audio_too_short', `track ${i + 1} audio is ${(f.duration_ms / 1000).toFixed(1)} s; it must be at least 30 s`);
    }
  });
  return out;
}

type Report = (path: string, code: string, message: string, hint?: string) => void;

function checkTitle(title: string, path: string, error: Report, warn: Report): void {
  if (!title) return;
  if (FEATURING_RE.test(title)) {
    error(path, 'title_has_featuring', `"${title}" credits an artist in the title`, 'Remove "feat. X" from the title and add X as an artist with role featuring.');
  }
  if (EXPLICIT_MARKER_RE.test(title)) {
    error(path, 'title_has_explicit_marker', `"${title}" marks clean/explicit in the title`, 'Remove it from the title and set the explicit field instead.');
  }
  const marketing = MARKETING_RE.exec(title);
  if (marketing) {
    error(path, 'title_has_marketing_words', `"${title}" contains "${marketing[1]}"`, 'Stores refuse marketing words in titles; remove them.');
  }
  if (VERSION_IN_TITLE_RE.test(title)) {
    warn(path, 'title_has_version', `"${title}" seems to carry a version in the title`, 'Put "Remix", "Live", "Deluxe Edition"… in the version field.');
  }
  if (GENERIC_TITLE_RE.test(title.trim())) {
    error(path, 'title_generic', `"${title}" is not a real title`, 'Give the track its real title; "Track 1" style titles are refused.');
  }
  caseWarnings(title, path, 'title', warn);
}

function severalPeople(name: string, knownActs: ReadonlySet<string>): boolean {
  if (COLLABORATION_RE.test(name)) return true;
  return JOINED_NAMES_RE.test(name) && !knownActs.has(name.trim().toLowerCase());
}

function checkArtists(artists: ArtistCredit[], path: string, knownActs: ReadonlySet<string>, error: Report, warn: Report): void {
  if (!artists.some((a) => a.role === 'primary')) {
    error(path, 'primary_artist_missing', 'there is no primary artist', 'Add at least one artist with role primary.');
  }
  const primaries = new Set(artists.filter((a) => a.role === 'primary').map((a) => a.name.trim().toLowerCase()));
  artists.forEach((a, i) => {
    const p = `${path}.${i}.name`;
    if (severalPeople(a.name, knownActs)) {
      error(
        p,
        'artist_several_people',
        `"${a.name}" names several people in one entry`,
        'Give each person their own entry ("A & B" is two entries). If it is one act, a duo or band such as "Simon & Garfunkel", add it to your label\'s artists (or make it your artist name) and it passes.',
      );
    }
    if (GENERIC_ARTIST_NAMES.has(a.name.trim().toLowerCase())) {
      error(p, 'artist_name_generic', `"${a.name}" is a generic name, not an artist`, 'Stores refuse descriptive artist names; use the real artist name.');
    }
    if (a.role === 'featuring' && primaries.has(a.name.trim().toLowerCase())) {
      error(`${path}.${i}.role`, 'artist_featured_and_primary', `"${a.name}" is both primary and featuring`, 'An artist is either primary or featuring, not both.');
    }
    checkName(a.name, p, warn);
  });
}

function checkName(name: string, path: string, warn: Report): void {
  if (EMOJI_RE.test(name)) warn(path, 'name_has_emoji', `"${name}" contains an emoji`, 'Stores usually strip or refuse emoji in names.');
  caseWarnings(name, path, 'name', warn);
}

function caseWarnings(text: string, path: string, what: 'title' | 'name', warn: Report): void {
  const letters = text.replace(/[^\p{L}]/gu, '');
  // Case only means something for scripts with case; short all-caps names (ABBA, U2) are common.
  if (letters.toLowerCase() === letters.toUpperCase()) return;
  if (letters.length >= 5 && letters === letters.toUpperCase()) {
    warn(path, `${what}_all_caps`, `"${text}" is all capitals`, 'Stores ask for title case unless the stylisation is the artist\'s own.');
  } else if (letters.length >= 2 && letters === letters.toLowerCase()) {
    warn(path, `${what}_all_lowercase`, `"${text}" is all lowercase`, 'Stores ask for title case unless the stylisation is the artist\'s own.');
  }
}
