// The service's submit checks (src/rules) held against a release that does not exist yet: a
// plan from a file, the flags or the wizard. Offline: what only the service knows (another of
// your releases with the same UPC, the acts your account declared) is left to the submit.
import type { AudioCheck } from '../../../audio/probe.js';
import type { ArtworkFacts } from '../../../artwork/rules.js';
import { runSubmitChecks, titleProblems, type CheckedRelease, type CheckedTrack, type Problem } from '../../../rules/submit-checks.js';
import type { CreatePlan } from './create-steps.js';

/** Names joined by "&" or ",": one act or several people, which only the service can tell. */
const JOINED_NAMES_RE = /\s&\s|,/;

/** The cover the plan would give the release: a local image's facts (read from its bytes), or a declared one as declared. */
function artworkOf(plan: CreatePlan, cover: ArtworkFacts | undefined): CheckedRelease['artwork'] {
  if (cover) return { ...cover, verified: true };
  const a = plan.release.artwork;
  return a && 'url' in a ? { ...a, verified: false } : null;
}

function releaseOf(plan: CreatePlan, cover?: ArtworkFacts): CheckedRelease {
  const r = plan.release;
  return {
    title: r.title,
    label: r.label,
    genre: r.genre ?? null,
    language: r.language ?? null,
    p_line: r.p_line ?? null,
    c_line: r.c_line ?? null,
    artists: r.artists,
    upc: r.upc ?? null,
    original_release_date: r.original_release_date ?? null,
    artwork: artworkOf(plan, cover),
    delivery: { release_date: plan.delivery?.release_date ?? null, preorder_date: plan.delivery?.preorder_date ?? null },
  };
}

function trackOf(plan: CreatePlan, t: CreatePlan['tracks'][number], title: string, audio: AudioCheck): CheckedTrack {
  const readable = audio.channels !== undefined && audio.sampleRate !== undefined && audio.bitDepth !== undefined && audio.durationSeconds !== undefined;
  return {
    title,
    artists: t.fields.artists ?? plan.release.artists,
    contributors: t.fields.contributors ?? [],
    audio_language: t.fields.audio_language ?? null,
    isrc: t.fields.isrc ?? null,
    file:
      readable && audio.errors.length === 0
        ? {
            state: 'ready',
            channels: audio.channels!,
            sample_rate: audio.sampleRate!,
            bit_depth: audio.bitDepth!,
            duration_ms: Math.round(audio.durationSeconds! * 1000),
          }
        : null,
  };
}

/**
 * Every problem the submit would report for this plan once created, in the service's order.
 * `titles` are the tracks' titles (from the plan or the files' tags), `audio` their files' checks
 * (refuseLocally's), in the same order.
 */
export function planProblems(plan: CreatePlan, titles: readonly string[], audio: readonly AudioCheck[], now: Date, cover?: ArtworkFacts): Problem[] {
  const tracks = plan.tracks.map((t, i) => trackOf(plan, t, titles[i]!, audio[i]!));
  // Benefit of the doubt for joined names: the service passes them when the account knows the act.
  const names = [...plan.release.artists, ...tracks.flatMap((t) => t.artists)].map((a) => a.name);
  const knownActs = new Set(names.filter((n) => JOINED_NAMES_RE.test(n)).map((n) => n.trim().toLowerCase()));
  return runSubmitChecks({ release: releaseOf(plan, cover), tracks, now, knownActs });
}

/** The first blocking problem the submit would find in a title, in its words (for a prompt). */
export function titleRefusal(title: string): string | undefined {
  const p = titleProblems(title, 'title').find((x) => x.severity === 'error');
  return p ? `${p.message}: ${p.hint ?? ''}`.replace(/:\s*$/, '') : undefined;
}

/**
 * The same checks for a release file that `release apply` would submit: for a new release, the
 * file alone (as `release create --check`); over an existing draft, what the file leaves out stays
 * as the service has it (a field the file sets to null clears it), and without tracks in the
 * file the service's tracks stand.
 */
export function applyProblems(
  plan: CreatePlan,
  titles: readonly string[],
  audio: readonly AudioCheck[],
  now: Date,
  existing?: { release: CheckedRelease; tracks: readonly CheckedTrack[] },
): Problem[] {
  if (existing === undefined) return planProblems(plan, titles, audio, now);
  const r = plan.release;
  const base = existing.release;
  const kept = <T>(fromFile: T | undefined, stored: T): T => (fromFile === undefined ? stored : fromFile);
  const release: CheckedRelease = {
    title: kept(r.title, base.title),
    label: kept(r.label, base.label),
    genre: kept(r.genre, base.genre),
    language: kept(r.language, base.language),
    p_line: kept(r.p_line, base.p_line),
    c_line: kept(r.c_line, base.c_line),
    artists: kept(r.artists, base.artists),
    upc: kept(r.upc, base.upc),
    original_release_date: kept(r.original_release_date, base.original_release_date),
    artwork: base.artwork,
    delivery: {
      release_date: kept(plan.delivery?.release_date, base.delivery.release_date),
      preorder_date: kept(plan.delivery?.preorder_date, base.delivery.preorder_date),
    },
  };
  const tracks =
    plan.tracks.length === 0
      ? [...existing.tracks]
      : plan.tracks.map((t, i) => trackOf({ ...plan, release: { ...plan.release, artists: release.artists } }, t, titles[i]!, audio[i]!));
  const names = [...release.artists, ...tracks.flatMap((t) => t.artists)].map((a) => a.name);
  const knownActs = new Set(names.filter((n) => JOINED_NAMES_RE.test(n)).map((n) => n.trim().toLowerCase()));
  return runSubmitChecks({ release, tracks, now, knownActs });
}
