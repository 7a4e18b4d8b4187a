// Every check the domain design asks for at submit, run all at once: a label must never learn
// its problems one at a time. Pure: the caller gathers the facts (the release with its tracks,
// another release holding the same UPC) and decides what to do with the answer. Shared: the
// service runs them at submit, the CLI before anything exists (`release create --check`, the
// wizard's answers), so both refuse the same things with the same words.
// Each check is a small named rule; the rules run in the order listed, release first, then each
// track through the track rules, and the problems come back in that order.
import type { ArtistCredit, ArtworkResource, Problem as ContractProblem, ReleaseResource, TrackResource } from '../contract/index.js';
import { artworkProblems, NOT_VERIFIED } from '../artwork/rules.js';
import { checkIsrc, checkUpc, type IsrcResult } from '../codes/index.js';
import { trackAudioProblems, type TrackAudio } from '../audio/rules.js';

/** One finding, always about a field (the contract's Problem, with its path). */
export type Problem = ContractProblem & { path: string };

/**
 * What the rules read of a cover: a stored one, or the facts the CLI read from a local file.
 * `verified`: read from the bytes; false for a cover declared by URL (its facts are the client's word).
 */
export type CheckedArtwork = Pick<ArtworkResource, 'verified' | 'format' | 'width' | 'height' | 'color_space'> & { bit_depth?: number | null };

/** What the rules read of a release: a stored one, or one not created yet (the CLI's plan). */
export type CheckedRelease = Pick<
  ReleaseResource,
  'title' | 'label' | 'genre' | 'language' | 'p_line' | 'c_line' | 'artists' | 'upc' | 'original_release_date'
> & {
  artwork: CheckedArtwork | null;
  delivery: Pick<ReleaseResource['delivery'], 'release_date' | 'preorder_date'>;
};

/** What the rules read of a track; `file` is its audio once ready (state 'ready' with its facts). */
export type CheckedTrack = Pick<TrackResource, 'title' | 'artists' | 'contributors' | 'audio_language' | 'isrc'> & {
  /** `sha256`: the file's identity, when known (a stored track's; a plan's files are compared before, by the CLI). */
  file: (TrackAudio & { state: string; sha256?: string }) | null;
};

export interface SubmitFacts {
  release: CheckedRelease;
  tracks: CheckedTrack[];
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
    'sleep music',
    'sleep',
    'sleep sounds',
    'workout',
    'workout music',
    'relaxing music',
    'relaxation',
    'relax',
    'study music',
    'study',
    'meditation',
    'meditation music',
    'white noise',
    'rain sounds',
    'nature sounds',
    'lullabies',
    'baby lullaby',
    'spa',
    'spa music',
    'yoga',
    'yoga music',
    'chill',
    'lofi',
    'lo-fi',
    'lofi beats',
    'focus',
    'party music',
    'christmas music',
    'piano music',
    'background music',
    'various',
    'unknown',
    'unknown artist',
    'artist',
    'dj',
  ].map((s) => s.toLowerCase()),
);

const FEATURING_RE = /(^|[\s([{-])(feat\.?|featuring|ft\.)(\s|$)|[([]\s*ft\s/i;
const EXPLICIT_MARKER_RE = /[([]\s*(clean|explicit|dirty)\s*(version)?\s*[)\]]/i;
const MARKETING_RE = /\b(official|exclusive|original mix|album version|free download|hq|hd|new single|new song)\b/i;
const VERSION_IN_TITLE_RE =
  /[([][^)\]]*\b(remix|remixed|live|deluxe|remaster(ed)?|edition|version|acoustic|instrumental|radio edit|extended mix)\b[^)\]]*[)\]]/i;
const GENERIC_TITLE_RE = /^(track|untitled|title|audio track)\s*(no\.?\s*|#\s*)?\d*$/i;
// Several people in one entry. Collaboration markers ("A / B", "A x B", "A vs. B", "A; B",
// "A feat. B", "A with B") always are. "&" and "," also join the names of one act ("Simon &
// Garfunkel", "Earth, Wind & Fire", "Tyler, The Creator"), which no pattern can tell from two
// people, so such a name passes only when the account knows it as one act (knownActs).
const COLLABORATION_RE = /;|\s\/\s|\sx\s|\svs\.?\s|\s(feat\.?|ft\.|featuring|with)\s/i;
const JOINED_NAMES_RE = /\s&\s|,/;
const EMOJI_RE = /\p{Extended_Pictographic}/u;

const RELEASE_LEAD_DAYS = 7;
const MANY_PRIMARIES = 4;

/** What every rule may consult besides the release and its tracks, worked out once. */
export interface CheckContext {
  facts: SubmitFacts;
  knownActs: ReadonlySet<string>;
  currentYear: number;
  /** checkIsrc's answer per track (undefined where the track has no ISRC). */
  isrcs: (IsrcResult | undefined)[];
  /** Normalized ISRC → the first track (index) carrying it validly. */
  firstTrackWithIsrc: ReadonlyMap<string, number>;
  /** A ready file's sha256 → the first track (index) holding it. */
  firstTrackWithAudio: ReadonlyMap<string, number>;
}

export interface ReleaseRule {
  name: string;
  check(release: CheckedRelease, tracks: CheckedTrack[], ctx: CheckContext): Problem[];
}

export interface TrackRule {
  name: string;
  check(track: CheckedTrack, index: number, ctx: CheckContext): Problem[];
}

const error = (path: string, code: string, message: string, hint?: string): Problem => ({ path, code, message, ...(hint ? { hint } : {}), severity: 'error' });
const warning = (path: string, code: string, message: string, hint?: string): Problem => ({
  path,
  code,
  message,
  ...(hint ? { hint } : {}),
  severity: 'warning',
});

// ---------------------------------------------------------------- release rules

const requiredFields: ReleaseRule = {
  name: 'required fields',
  check(r) {
    const required: [string, unknown, string][] = [
      ['title', r.title, 'a title'],
      ['label', r.label, 'a label'],
      ['genre', r.genre, 'a genre (see the genres lookup)'],
      ['language', r.language, 'the metadata language (see the languages lookup)'],
      ['p_line', r.p_line, 'a ℗ line {year, owner}: who owns the sound recording'],
      ['c_line', r.c_line, 'a © line {year, owner}: who owns the artwork and text'],
      ['delivery.release_date', r.delivery.release_date, 'a release date (PATCH …/delivery)'],
    ];
    return required
      .filter(([, value]) => value === null || value === undefined || value === '')
      .map(([path, , what]) => error(path, 'required', `${path} is missing`, `Set ${what}.`));
  },
};

const releaseTitle: ReleaseRule = { name: 'release title', check: (r) => titleProblems(r.title, 'title') };

const releaseArtists: ReleaseRule = { name: 'release artists', check: (r, _t, ctx) => artistProblems(r.artists, 'artists', ctx.knownActs) };

const manyPrimaryArtists: ReleaseRule = {
  name: 'many primary artists',
  check(r) {
    const primaries = r.artists.filter((a) => a.role === 'primary').length;
    if (primaries < MANY_PRIMARIES) return [];
    return [
      warning(
        'artists',
        'many_primary_artists',
        `${primaries} primary artists on one release`,
        'Stores often show releases with four or more primaries as "Various Artists"; consider featuring roles.',
      ),
    ];
  },
};

const upc: ReleaseRule = {
  name: 'UPC',
  check(r, _t, { facts }) {
    if (r.upc === null) return [];
    const u = checkUpc(r.upc);
    if (!u.valid) {
      return [
        error(
          'upc',
          'upc_invalid',
          `the UPC ${r.upc} is invalid: ${u.problems.map((p) => p.message).join('; ')}`,
          'Fix the code, or clear it to have one assigned at submit.',
        ),
      ];
    }
    if (facts.upcInUseBy) {
      return [
        error(
          'upc',
          'upc_in_use',
          `the UPC ${r.upc} is already used by your release ${facts.upcInUseBy.id} (${facts.upcInUseBy.status})`,
          'Each release needs its own UPC; clear it to have one assigned.',
        ),
      ];
    }
    return [];
  },
};

const preorderBeforeRelease: ReleaseRule = {
  name: 'preorder before release',
  check(r) {
    const { release_date: releaseDate, preorder_date: preorder } = r.delivery;
    if (!releaseDate || !preorder || preorder < releaseDate) return [];
    return [
      error(
        'delivery.preorder_date',
        'preorder_not_before_release',
        `the preorder date ${preorder} is not before the release date ${releaseDate}`,
        'Move the preorder date earlier, or remove it.',
      ),
    ];
  },
};

const originalReleaseNotAfterRelease: ReleaseRule = {
  name: 'original release not after release',
  check(r) {
    const releaseDate = r.delivery.release_date;
    if (!releaseDate || !r.original_release_date || r.original_release_date <= releaseDate) return [];
    return [
      error(
        'original_release_date',
        'original_release_after_release',
        `the original release date ${r.original_release_date} is after the release date ${releaseDate}`,
        'The original release date is when it first came out: on or before the release date.',
      ),
    ];
  },
};

const releaseDateLead: ReleaseRule = {
  name: 'release date lead time',
  check(r, _t, { facts }) {
    const releaseDate = r.delivery.release_date;
    if (!releaseDate) return [];
    const days = Math.floor((Date.parse(`${releaseDate}T00:00:00Z`) - Date.parse(`${facts.now.toISOString().slice(0, 10)}T00:00:00Z`)) / 86_400_000);
    if (!(days < RELEASE_LEAD_DAYS)) return [];
    const when = days < 0 ? `the release date ${releaseDate} is in the past` : `the release date ${releaseDate} is ${days} day${days === 1 ? '' : 's'} away`;
    return [
      warning(
        'delivery.release_date',
        'release_date_soon',
        when,
        `Stores need at least ${RELEASE_LEAD_DAYS} days (more for editorial pitching); the release may go live late.`,
      ),
    ];
  },
};

/** The field a cover problem is about. */
const ARTWORK_PATHS: Record<string, string> = { artwork_format: 'artwork.format', artwork_color_space: 'artwork.color_space' };

const artwork: ReleaseRule = {
  name: 'artwork',
  check(r) {
    const a = r.artwork;
    if (!a) return [];
    // A declared cover is still held to what was declared (a declared 1400 px is 1400 px), and said to be unverified.
    const found = a.verified ? artworkProblems(a) : [NOT_VERIFIED, ...artworkProblems({ ...a, bit_depth: null })];
    return found.map((p) => (p.severity === 'error' ? error : warning)(ARTWORK_PATHS[p.code] ?? 'artwork', p.code, p.message));
  },
};

const hasTracks: ReleaseRule = {
  name: 'has tracks',
  check: (_r, tracks) =>
    tracks.length === 0 ? [error('tracks', 'no_tracks', 'the release has no tracks', 'Upload audio and add tracks with PUT /releases/{id}/tracks.')] : [],
};

const eachTrack: ReleaseRule = {
  name: 'each track',
  check: (_r, tracks, ctx) => tracks.flatMap((t, i) => TRACK_RULES.flatMap((rule) => rule.check(t, i, ctx))),
};

// ---------------------------------------------------------------- track rules

const trackTitle: TrackRule = { name: 'track title', check: (t, i) => titleProblems(t.title, `tracks.${i}.title`) };

const trackArtists: TrackRule = { name: 'track artists', check: (t, i, ctx) => artistProblems(t.artists, `tracks.${i}.artists`, ctx.knownActs) };

const composer: TrackRule = {
  name: 'composer',
  check(t, i) {
    if (t.contributors.some((c) => c.role === 'composer')) return [];
    return [
      error(`tracks.${i}.contributors`, 'composer_missing', `track ${i + 1} "${t.title}" has no composer`, 'Add at least one contributor with role composer.'),
    ];
  },
};

const lyricist: TrackRule = {
  name: 'lyricist',
  check(t, i) {
    if (t.audio_language === null || t.audio_language === 'instrumental' || t.contributors.some((c) => c.role === 'lyricist')) return [];
    return [
      warning(
        `tracks.${i}.contributors`,
        'lyricist_missing',
        `track ${i + 1} "${t.title}" has lyrics (${t.audio_language}) but no lyricist`,
        'Add a lyricist, or set audio_language to "instrumental".',
      ),
    ];
  },
};

const contributorNames: TrackRule = {
  name: 'contributor names',
  check: (t, i) => t.contributors.flatMap((c) => nameProblems(c.name, `tracks.${i}.contributors`)),
};

const isrc: TrackRule = {
  name: 'ISRC',
  check(t, i, ctx) {
    const res = ctx.isrcs[i];
    if (t.isrc === null || res === undefined) return [];
    const path = `tracks.${i}.isrc`;
    if (!res.valid) {
      return [
        error(
          path,
          'isrc_invalid',
          `the ISRC ${t.isrc} is invalid: ${res.problems
            .filter((x) => x.severity === 'error')
            .map((x) => x.message)
            .join('; ')}`,
          'Fix the code, or clear it to have one assigned at submit.',
        ),
      ];
    }
    const out = res.problems.filter((w) => w.severity === 'warning').map((w) => warning(path, `isrc_${w.code}`, w.message));
    const first = ctx.firstTrackWithIsrc.get(res.normalized!);
    if (first !== undefined && first !== i) {
      out.push(
        error(
          path,
          'isrc_duplicate',
          `track ${i + 1} has the same ISRC ${res.normalized} as track ${first + 1}`,
          'Each recording on a release needs its own ISRC.',
        ),
      );
    }
    return out;
  },
};

const audioFile: TrackRule = {
  name: 'audio file',
  check(t, i) {
    const path = `tracks.${i}.file`;
    const f = t.file;
    if (f?.state !== 'ready') {
      return [
        error(
          path,
          'track_file_missing',
          `track ${i + 1} "${t.title}" has no ready audio file`,
          'Upload the audio (POST …/tracks/upload-url) and attach its key.',
        ),
      ];
    }
    return trackAudioProblems(f, i + 1).map((p) => error(path, p.code, p.message));
  },
};

// Distributors refuse one recording delivered as two tracks: stores take the second for a copy.
const sameAudio: TrackRule = {
  name: 'same audio',
  check(t, i, ctx) {
    const sha = t.file?.state === 'ready' ? t.file.sha256 : undefined;
    const first = sha === undefined ? undefined : ctx.firstTrackWithAudio.get(sha);
    if (first === undefined || first === i) return [];
    return [
      error(
        `tracks.${i}.file`,
        'audio_duplicate',
        `same audio on tracks ${first + 1} and ${i + 1} (sha256 ${sha!.slice(0, 12)}…)`,
        'Each track needs its own recording.',
      ),
    ];
  },
};

/** Run in this order for each track. */
export const TRACK_RULES: readonly TrackRule[] = [trackTitle, trackArtists, composer, lyricist, contributorNames, isrc, audioFile, sameAudio];

/** Run in this order; the last one runs the track rules over every track. */
export const RELEASE_RULES: readonly ReleaseRule[] = [
  requiredFields,
  releaseTitle,
  releaseArtists,
  manyPrimaryArtists,
  upc,
  preorderBeforeRelease,
  originalReleaseNotAfterRelease,
  releaseDateLead,
  artwork,
  hasTracks,
  eachTrack,
];

function contextOf(facts: SubmitFacts): CheckContext {
  const currentYear = facts.now.getUTCFullYear();
  const isrcs = facts.tracks.map((t) => (t.isrc === null ? undefined : checkIsrc(t.isrc, { currentYear })));
  const firstTrackWithIsrc = new Map<string, number>();
  isrcs.forEach((res, i) => {
    if (res?.valid && !firstTrackWithIsrc.has(res.normalized!)) firstTrackWithIsrc.set(res.normalized!, i);
  });
  const firstTrackWithAudio = new Map<string, number>();
  facts.tracks.forEach((t, i) => {
    const sha = t.file?.state === 'ready' ? t.file.sha256 : undefined;
    if (sha !== undefined && !firstTrackWithAudio.has(sha)) firstTrackWithAudio.set(sha, i);
  });
  return { facts, knownActs: facts.knownActs ?? new Set<string>(), currentYear, isrcs, firstTrackWithIsrc, firstTrackWithAudio };
}

export function runSubmitChecks(facts: SubmitFacts): Problem[] {
  const ctx = contextOf(facts);
  return RELEASE_RULES.flatMap((rule) => rule.check(facts.release, facts.tracks, ctx));
}

// ---------------------------------------------------------------- at the door

/**
 * The rules about a value as it is given, not about what is still missing (a genre, a composer,
 * the audio): the CLI runs these where a value enters (flags, files, edits, the wizard), the
 * same rules as the submit, so both say the same thing with the same code.
 */
const FIELD_RELEASE_RULES: readonly ReleaseRule[] = [releaseTitle, releaseArtists, upc, preorderBeforeRelease, originalReleaseNotAfterRelease];
const FIELD_TRACK_RULES: readonly TrackRule[] = [trackTitle, trackArtists, contributorNames, isrc];

/** Problems no change to any other field can cure: a value with one is refused where it enters. */
export const NEVER_PASSES: ReadonlySet<string> = new Set(['upc_invalid', 'isrc_invalid', 'isrc_duplicate']);

/**
 * The field rules over what a door knows. Names joined by "&" or "," get the benefit of the doubt
 * (only the service knows the acts an account declared); another release's UPC is the submit's.
 */
export function runFieldChecks(facts: Pick<SubmitFacts, 'release' | 'tracks' | 'now'>): Problem[] {
  const names = [...facts.release.artists, ...facts.tracks.flatMap((t) => t.artists)].map((a) => a.name);
  const knownActs = new Set(names.filter((n) => JOINED_NAMES_RE.test(n)).map((n) => n.trim().toLowerCase()));
  const ctx = contextOf({ ...facts, knownActs });
  return [
    ...FIELD_RELEASE_RULES.flatMap((rule) => rule.check(facts.release, facts.tracks, ctx)),
    ...facts.tracks.flatMap((t, i) => FIELD_TRACK_RULES.flatMap((rule) => rule.check(t, i, ctx))),
  ];
}

// ---------------------------------------------------------------- shared by several rules

export function titleProblems(title: string, path: string): Problem[] {
  if (!title) return [];
  const out: Problem[] = [];
  if (FEATURING_RE.test(title)) {
    out.push(
      error(
        path,
        'title_has_featuring',
        `"${title}" credits an artist in the title`,
        'Remove "feat. X" from the title and add X as an artist with role featuring.',
      ),
    );
  }
  if (EXPLICIT_MARKER_RE.test(title)) {
    out.push(
      error(path, 'title_has_explicit_marker', `"${title}" marks clean/explicit in the title`, 'Remove it from the title and set the explicit field instead.'),
    );
  }
  const marketing = MARKETING_RE.exec(title);
  if (marketing) {
    out.push(error(path, 'title_has_marketing_words', `"${title}" contains "${marketing[1]}"`, 'Stores refuse marketing words in titles; remove them.'));
  }
  if (VERSION_IN_TITLE_RE.test(title)) {
    out.push(
      warning(path, 'title_has_version', `"${title}" seems to carry a version in the title`, 'Put "Remix", "Live", "Deluxe Edition"… in the version field.'),
    );
  }
  if (GENERIC_TITLE_RE.test(title.trim())) {
    out.push(error(path, 'title_generic', `"${title}" is not a real title`, 'Give the track its real title; "Track 1" style titles are refused.'));
  }
  return [...out, ...caseProblems(title, path, 'title')];
}

function severalPeople(name: string, knownActs: ReadonlySet<string>): boolean {
  if (COLLABORATION_RE.test(name)) return true;
  return JOINED_NAMES_RE.test(name) && !knownActs.has(name.trim().toLowerCase());
}

function artistProblems(artists: ArtistCredit[], path: string, knownActs: ReadonlySet<string>): Problem[] {
  const out: Problem[] = [];
  if (!artists.some((a) => a.role === 'primary')) {
    out.push(error(path, 'primary_artist_missing', 'there is no primary artist', 'Add at least one artist with role primary.'));
  }
  const primaries = new Set(artists.filter((a) => a.role === 'primary').map((a) => a.name.trim().toLowerCase()));
  artists.forEach((a, i) => {
    const p = `${path}.${i}.name`;
    if (severalPeople(a.name, knownActs)) {
      out.push(
        error(
          p,
          'artist_several_people',
          `"${a.name}" names several people in one entry`,
          'Give each person their own entry ("A & B" is two entries). If it is one act, a duo or band such as "Simon & Garfunkel", add it to your label\'s artists (or make it your artist name) and it passes.',
        ),
      );
    }
    if (GENERIC_ARTIST_NAMES.has(a.name.trim().toLowerCase())) {
      out.push(
        error(p, 'artist_name_generic', `"${a.name}" is a generic name, not an artist`, 'Stores refuse descriptive artist names; use the real artist name.'),
      );
    }
    if (a.role === 'featuring' && primaries.has(a.name.trim().toLowerCase())) {
      out.push(
        error(
          `${path}.${i}.role`,
          'artist_featured_and_primary',
          `"${a.name}" is both primary and featuring`,
          'An artist is either primary or featuring, not both.',
        ),
      );
    }
    out.push(...nameProblems(a.name, p));
  });
  return out;
}

function nameProblems(name: string, path: string): Problem[] {
  const out: Problem[] = [];
  if (EMOJI_RE.test(name)) out.push(warning(path, 'name_has_emoji', `"${name}" contains an emoji`, 'Stores usually strip or refuse emoji in names.'));
  return [...out, ...caseProblems(name, path, 'name')];
}

function caseProblems(text: string, path: string, what: 'title' | 'name'): Problem[] {
  const letters = text.replace(/[^\p{L}]/gu, '');
  // Case only means something for scripts with case; short all-caps names (ABBA, U2) are common.
  if (letters.toLowerCase() === letters.toUpperCase()) return [];
  if (letters.length >= 5 && letters === letters.toUpperCase()) {
    return [warning(path, `${what}_all_caps`, `"${text}" is all capitals`, "Stores ask for title case unless the stylisation is the artist's own.")];
  }
  if (letters.length >= 2 && letters === letters.toLowerCase()) {
    return [warning(path, `${what}_all_lowercase`, `"${text}" is all lowercase`, "Stores ask for title case unless the stylisation is the artist's own.")];
  }
  return [];
}
