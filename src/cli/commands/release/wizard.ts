// The `release create` wizard, for a person at a terminal: asks for each field (choices from the
// lookups), offers to find the artist's profiles on the three platforms, shows a summary and
// creates nothing until it is confirmed. Ctrl-C at any prompt ends it with nothing created.
import { resolve } from 'node:path';
import type { ApiClient } from '../../../client/index.js';
import { judgeAtDoor } from '../../shared/field-checks.js';
import { IsoDate, type ArtistPlatform, type ArtistPlatformResult, type CreateReleaseRequest, type PlatformChoice } from '../../../contract/index.js';
import type { Context } from '../../context.js';
import { AnswerExit, ExitCode } from '../../errors.js';
import { promptConfirm, promptSelect, promptText } from '../../prompts.js';
import { audioFileProblem, displayPath, imageFileProblem } from '../../release-file/load.js';
import { checkArtworkPath } from '../../shared/artwork-check.js';
import { titleOf } from '../../shared/audio-title.js';
import { firstRefusal } from '../../shared/audio-check.js';
import { earlierSameAudio } from '../../shared/same-audio.js';
import { titleRefusal } from './plan-checks.js';
import { catalogTakenAtPrompt, findCatalogHolder } from './catalog-taken.js';
import { describeError } from '../../describe-error.js';
import type { CreatePlan, PlanTrack } from './create-steps.js';
import { artistsText } from '../../shared/release-views.js';
import { PLATFORMS } from '../../shared/args.js';
import { writeStderr } from '../../output/index.js';

export interface ProfileChoice {
  platform: ArtistPlatform;
  mode: 'existing' | 'new';
  profile_id?: string;
  name?: string;
}

export interface WizardResult {
  plan: CreatePlan;
  /** Profile choices for the primary artist, saved to the preferences after the release is created. */
  profiles: ProfileChoice[];
  artistName: string;
  accountKind: 'label' | 'artist';
}

const MAX_ENTRIES = 20;
const notEmpty = (v: string) => (v.trim() ? true : 'cannot be empty');

// Each answer is held against the rule the service applies to it, so that a refusal comes at
// the question, with the service's reason, not after the draft exists.

/** A title: not empty, and nothing the submit checks refuse ("feat.", marketing words…). */
export function checkTitle(v: string): true | string {
  if (!v.trim()) return 'cannot be empty';
  return titleRefusal(v.trim()) ?? true;
}

/** A real calendar date in the contract's form (2027-13-01 and 2027-02-30 are refused), or nothing. */
export function checkDate(v: string): true | string {
  const s = v.trim();
  if (s === '' || IsoDate.safeParse(s).success) return true;
  return /^\d{4}-\d{2}-\d{2}$/.test(s) ? `${s} is not a date in the calendar` : 'a date like 2027-01-15';
}

/** A UPC/EAN the submit's UPC rule takes (the door's check, its code and words), or nothing. */
export function checkUpcAnswer(v: string): true | string {
  if (v.trim() === '') return true;
  const { refused } = judgeAtDoor({ release: { upc: v.trim() }, locate: (path) => (path === 'upc' ? 'UPC' : undefined), now: new Date() });
  const p = refused[0]?.problem;
  return p === undefined ? true : `${p.code}: ${p.message}; or Enter to have one assigned`;
}

async function copyright(ctx: Context, symbol: string, flag: string, fallback: string): Promise<{ year: number; owner: string }> {
  const v = await promptText(ctx, {
    message: `${symbol} line (year and owner):`,
    flag,
    default: fallback,
    validate: (s) => (/^\s*\d{4}\s+\S/.test(s) ? true : 'write the year, then the owner: 2026 Northern Lights Records'),
  });
  const m = /^\s*(\d{4})\s+(.+?)\s*$/.exec(v)!;
  return { year: Number(m[1]), owner: m[2]! };
}

/** Names, one per prompt, until Enter; `required`: the first one cannot be left empty. */
async function names(ctx: Context, message: string, flag: string, required?: string): Promise<string[]> {
  const out: string[] = [];
  for (let i = 0; i < MAX_ENTRIES; i++) {
    const first = out.length === 0;
    const v = (
      await promptText(ctx, {
        message: first ? message : `${message} (another, or Enter to finish)`,
        flag,
        ...(first && required ? { validate: (s: string) => (s.trim() ? true : required) } : {}),
      })
    ).trim();
    if (!v) break;
    out.push(v);
  }
  return out;
}

export async function runWizard(ctx: Context, client: ApiClient): Promise<WizardResult> {
  const now = ctx.now();
  // The lookups and the account's defaults, fetched once before the first question.
  const [genres, languages, me] = await Promise.all([client.call('getGenres'), client.call('getLanguages'), client.call('getMe')]);
  const labelPrefs = me.kind === 'label' ? await client.call('getLabelPreferences', { query: { perPage: 1 } }) : undefined;
  const label = labelPrefs?.label;

  writeStderr(ctx, 'Create a release. Ctrl-C at any time leaves nothing created.\n');
  const type = await promptSelect(ctx, {
    message: 'Type:',
    flag: '--type',
    choices: [
      { value: 'single', name: 'single (1-3 tracks)' },
      { value: 'ep', name: 'EP (4-6 tracks)' },
      { value: 'album', name: 'album' },
      { value: 'compilation', name: 'compilation' },
    ],
  });
  const title = (
    await promptText(ctx, {
      message: 'Title:',
      flag: '--title',
      validate: checkTitle,
    })
  ).trim();
  const version = (await promptText(ctx, { message: 'Version (e.g. Deluxe Edition, Live; Enter for none):', flag: '--version' })).trim();
  const primary = await names(ctx, 'Primary artist (one person):', '--artist', 'a release needs at least one primary artist');
  const featuring = await names(ctx, 'Featured artist (Enter for none):', '--featuring');
  const labelName = (await promptText(ctx, { message: 'Label:', flag: '--label', default: label?.name ?? me.label_name ?? '', validate: notEmpty })).trim();
  const catalogNumber = await askCatalogNumber(ctx, client);
  const genre = await promptSelect(ctx, {
    message: 'Genre:',
    flag: '--genre',
    choices: genres.map((g) => ({ value: g })),
    ...(label?.default_genre && genres.includes(label.default_genre) ? { default: label.default_genre } : {}),
  });
  const language = await promptSelect(ctx, {
    message: 'Language of the metadata:',
    flag: '--language',
    choices: languages.map((l) => ({ value: l.code, name: `${l.name} (${l.code})` })),
    default: label?.default_language ?? 'en',
  });
  const explicit = await promptSelect(ctx, {
    message: 'Explicit content:',
    flag: '--explicit',
    choices: [{ value: 'not_explicit' }, { value: 'explicit' }, { value: 'clean', name: 'clean (an edited version)' }],
  });
  const p_line = await copyright(ctx, '℗', '--p-line', `${now.getFullYear()} ${label?.default_p_line_owner ?? labelName}`);
  const c_line = await copyright(ctx, '©', '--c-line', `${now.getFullYear()} ${label?.default_c_line_owner ?? labelName}`);
  const upc = (
    await promptText(ctx, {
      message: 'UPC/EAN (Enter to have one assigned at submit):',
      flag: '--upc',
      validate: checkUpcAnswer,
    })
  ).trim();

  const tracks: PlanTrack[] = [];
  for (let i = 0; i < 99; i++) {
    const path = (
      await promptText(ctx, {
        message: `Audio file for track ${i + 1} (WAV, FLAC or AIFF; Enter ${i === 0 ? 'to add tracks later' : 'when done'}):`,
        flag: '--file',
        // The service's audio rules offline, and no second copy of a track's audio.
        validate: async (v) => {
          const answer = await audioAnswer(v);
          if (answer !== true || !v.trim()) return answer;
          return (await sameAudioAsEarlier(tracks, resolve(v.trim()))) ?? true;
        },
      })
    ).trim();
    if (!path) break;
    const abs = resolve(path);
    const title = (await promptText(ctx, { message: `Title of track ${i + 1}:`, flag: '--file', default: await titleOf(abs), validate: checkTitle })).trim();
    const composer = (await promptText(ctx, { message: 'Composer:', flag: '--file', default: primary[0]!, validate: notEmpty })).trim();
    tracks.push({ path: abs, shown: displayPath(abs), fields: { title, contributors: [{ name: composer, role: 'composer' }] } });
  }
  const artwork = await askCover(ctx);
  const releaseDate = await askReleaseDate(ctx);

  const profiles = await findProfiles(ctx, client, primary[0]!, me.kind);

  const release: CreateReleaseRequest = {
    type: type as CreateReleaseRequest['type'],
    title,
    ...(version ? { version } : {}),
    artists: [...primary.map((name) => ({ name, role: 'primary' as const })), ...featuring.map((name) => ({ name, role: 'featuring' as const }))],
    label: labelName,
    ...(catalogNumber ? { catalog_number: catalogNumber } : {}),
    genre,
    language,
    explicit: explicit as CreateReleaseRequest['explicit'] & string,
    p_line,
    c_line,
    ...(upc ? { upc } : {}),
  };
  const plan: CreatePlan = {
    source: 'the wizard',
    release,
    ...(artwork ? { artwork } : {}),
    tracks,
    delivery: releaseDate ? { release_date: releaseDate } : undefined,
  };
  writeStderr(ctx, `\n${summary(plan, profiles)}\n`);
  if (!(await promptConfirm(ctx, { message: 'Create this release?', default: true, flag: '--yes' }))) {
    // An answer, not a failure: exit 0 with a word, as every declined confirmation.
    writeStderr(ctx, 'cancelled: nothing was created\n');
    throw new AnswerExit(ExitCode.ok, 'cancelled');
  }
  return { plan, profiles, artistName: primary[0]!, accountKind: me.kind };
}

/**
 * The cover, read from its bytes as the service will: an image it would refuse, or one the submit
 * would block (CMYK, under 3000 px, not square), is refused at the prompt with its reasons and
 * asked for again; Enter leaves it for later (`reldist release edit ID --artwork FILE`).
 */
async function askCover(ctx: Context): Promise<CreatePlan['artwork']> {
  let warnings: string[] = [];
  const path = (
    await promptText(ctx, {
      message: 'Cover image (JPEG or PNG, square, at least 3000 px; Enter to add it later):',
      flag: '--artwork',
      validate: async (v) => {
        const answer = await coverAnswer(v);
        if (typeof answer === 'string') return answer;
        warnings = answer.warnings;
        return true;
      },
    })
  ).trim();
  if (!path) return undefined;
  for (const w of warnings) writeStderr(ctx, `  ${path}: warning: ${w}\n`);
  const abs = resolve(path);
  return { path: abs, shown: displayPath(abs), where: '--artwork' };
}

/** What a path typed at a prompt is relative to. */
const HERE = 'the current folder';

/**
 * An audio file's answer: the service's audio rules, offline: a file it would refuse is refused
 * at the prompt, with its reason, and asked for again. Enter (no more tracks) passes.
 */
export async function audioAnswer(v: string): Promise<true | string> {
  const path = v.trim();
  if (!path) return true;
  const abs = resolve(path);
  return (await audioFileProblem(abs, path, HERE)) ?? (await firstRefusal(abs))?.message ?? true;
}

/** A cover's answer: the reasons it would be refused or blocked, or what to warn of once it is taken. */
export async function coverAnswer(v: string): Promise<string | { warnings: string[] }> {
  const path = v.trim();
  if (!path) return { warnings: [] };
  const abs = resolve(path);
  const problem = await imageFileProblem(abs, path, HERE);
  if (problem) return problem;
  const check = await checkArtworkPath(abs);
  const blocking = check.refusal ? [check.refusal.message] : check.problems.filter((p) => p.severity === 'error').map((p) => p.message);
  if (blocking.length > 0) return blocking.join('; ');
  return { warnings: check.problems.map((p) => p.message) };
}

/** How long the catalog number's look-up may take before the wizard goes on without it. */
const CATALOG_CHECK_MS = 5000;

/**
 * The catalog number, checked against the user's releases at the prompt: one already in use is
 * refused there, naming the release that holds it and the commands that update that one. When
 * the service cannot answer, the wizard says so and goes on: the create checks it again.
 */
async function askCatalogNumber(ctx: Context, client: ApiClient): Promise<string> {
  let unchecked: string | undefined;
  const answer = await promptText(ctx, {
    message: 'Catalog number (how `release apply` finds it again; Enter for none):',
    flag: '--catalog-number',
    validate: async (v) => {
      const n = v.trim();
      unchecked = undefined;
      if (n.length > 20) return 'at most 20 characters';
      if (n === '') return true;
      try {
        const holder = await findCatalogHolder(client, n, AbortSignal.any([ctx.signal, AbortSignal.timeout(CATALOG_CHECK_MS)]));
        return holder ? catalogTakenAtPrompt(n, holder) : true;
      } catch (err) {
        if (ctx.signal.aborted) throw err;
        unchecked = describeError(err, { debug: false }).message;
        return true;
      }
    },
  });
  const n = answer.trim();
  if (unchecked !== undefined) {
    writeStderr(ctx, `  could not check ${n} against your releases (${unchecked}); it is checked again when the release is created\n`);
  }
  return n;
}

/** The release date; one in the past is kept only after a yes (stores show it as the original date). */
async function askReleaseDate(ctx: Context): Promise<string> {
  const today = ctx.now().toISOString().slice(0, 10);
  for (let asked = 0; asked < 99; asked++) {
    const date = (
      await promptText(ctx, {
        message: 'Release date (YYYY-MM-DD; Enter to set it later):',
        flag: '--release-date',
        validate: checkDate,
      })
    ).trim();
    if (!date || !isPast(date, today)) return date;
    if (await promptConfirm(ctx, { message: pastDateQuestion(date), default: false, flag: '--release-date' })) return date;
  }
  return '';
}

/** Whether an ISO date is before `today` (both YYYY-MM-DD, compared as the submit's check does, in UTC). */
export function isPast(date: string, today: string): boolean {
  return date < today;
}

export function pastDateQuestion(date: string): string {
  return `${date} is in the past: stores will show it as the original date; keep it?`;
}

const PLATFORM_LABEL: Record<string, string> = { streaming_a: 'streaming service A', video_b: 'video service B', store_c: 'store C' };

/** The profiles saved for the artist: on the label's artist entry, or the artist account's own. */
async function savedProfiles(client: ApiClient, name: string, accountKind: 'label' | 'artist'): Promise<PlatformChoice[]> {
  if (accountKind === 'artist') return (await client.call('getArtistPreferences')).platforms;
  const prefs = await client.call('getLabelPreferences', { query: { search: name, perPage: 100 } });
  return prefs.artists.find((a) => a.name.toLowerCase() === name.toLowerCase())?.platforms ?? [];
}

function savedText(p: PlatformChoice): string {
  return `    ${PLATFORM_LABEL[p.platform]}: ${p.mode === 'new' ? 'create a new profile' : p.profile ? `${p.profile.name} (${p.profile.id})` : 'an existing profile'}`;
}

/**
 * Searches the three platforms for the artist and asks, per platform, which profile is theirs.
 * Profiles already saved are shown first and replaced only after a yes.
 */
async function findProfiles(ctx: Context, client: ApiClient, name: string, accountKind: 'label' | 'artist'): Promise<ProfileChoice[]> {
  const saved = await savedProfiles(client, name, accountKind);
  if (saved.length > 0) {
    writeStderr(ctx, `${name}'s saved profiles:\n${saved.map(savedText).join('\n')}\n`);
    const replace = await promptConfirm(ctx, { message: `Replace ${name}'s saved profiles?`, default: false, flag: '--yes' });
    if (!replace) return [];
  }
  const wanted = await promptConfirm(ctx, {
    message: `Find ${name}'s profiles on streaming service A, video service B and store C?`,
    default: true,
    flag: '--yes',
  });
  if (!wanted) return [];
  const found = await client.call('searchArtistPlatform', { body: { name, limit: 5 } });
  const choices: ProfileChoice[] = [];
  for (const platform of PLATFORMS) {
    const artists: ArtistPlatformResult[] = found.results.find((r) => r.platform === platform)?.artists ?? [];
    const picked = await promptSelect(ctx, {
      message: `${name} on ${PLATFORM_LABEL[platform]}:`,
      flag: '--yes',
      choices: [
        ...artists.map((a) => ({ value: `id:${a.id}`, name: `${a.name}${a.followers != null ? ` (${a.followers} followers)` : ''}`, description: a.url })),
        { value: 'new', name: 'none of these: create a new profile' },
        { value: 'skip', name: 'decide later' },
      ],
    });
    if (picked === 'skip') continue;
    if (picked === 'new') choices.push({ platform, mode: 'new' });
    else {
      const a = artists.find((x) => `id:${x.id}` === picked)!;
      choices.push({ platform, mode: 'existing', profile_id: a.id, name: a.name });
    }
  }
  return choices;
}

export function summary(plan: CreatePlan, profiles: ProfileChoice[]): string {
  const r = plan.release;
  const lines = [
    'Summary',
    `  Type:      ${r.type}`,
    `  Title:     ${r.title}${r.version ? ` (${r.version})` : ''}`,
    `  Artists:   ${artistsText(r.artists)}`,
    `  Label:     ${r.label}`,
    ...(r.catalog_number ? [`  Catalog:   ${r.catalog_number}`] : []),
    `  Genre:     ${r.genre ?? '-'}`,
    `  Language:  ${r.language ?? '-'}`,
    `  Explicit:  ${r.explicit ?? '-'}`,
    `  ℗ line:    ${r.p_line ? `${r.p_line.year} ${r.p_line.owner}` : '-'}`,
    `  © line:    ${r.c_line ? `${r.c_line.year} ${r.c_line.owner}` : '-'}`,
    `  UPC:       ${r.upc || 'assigned at submit'}`,
    `  Cover:     ${plan.artwork?.shown ?? 'none yet (add it with `reldist release edit ID --artwork FILE`)'}`,
    `  Release:   ${plan.delivery?.release_date ?? 'date not set'}`,
    `  Tracks:    ${plan.tracks.length === 0 ? 'none yet (add them with `reldist track upload`)' : ''}`,
    ...plan.tracks.map((t, i) => `    ${i + 1}. ${t.fields.title}  ${t.shown}`),
  ];
  if (profiles.length > 0) {
    lines.push('  Profiles:');
    for (const p of profiles) lines.push(`    ${PLATFORM_LABEL[p.platform]}: ${p.mode === 'new' ? 'create a new profile' : `${p.name} (${p.profile_id})`}`);
  }
  return lines.join('\n');
}

/** Saves the profile choices for the artist: on the label's artist entry, or the artist account's own. */
export async function saveProfiles(client: ApiClient, result: WizardResult): Promise<void> {
  if (result.profiles.length === 0) return;
  const platforms = result.profiles.map((p) => ({ platform: p.platform, mode: p.mode, ...(p.profile_id ? { profile_id: p.profile_id } : {}) }));
  if (result.accountKind === 'artist') {
    await client.call('submitArtistPreference', { body: { platforms } });
    return;
  }
  const prefs = await client.call('getLabelPreferences', { query: { search: result.artistName, perPage: 100 } });
  const existing = prefs.artists.find((a) => a.name.toLowerCase() === result.artistName.toLowerCase());
  await client.call('submitLabelPreference', { body: { artists: [{ ...(existing ? { id: existing.id } : {}), name: result.artistName, platforms }] } });
}

/** A file with the same audio as a track already given (same sha256): said, and asked for again. */
async function sameAudioAsEarlier(tracks: readonly PlanTrack[], abs: string): Promise<string | undefined> {
  const same = (await earlierSameAudio([...tracks.map((t) => ({ path: t.path })), { path: abs }])).at(-1);
  return same === undefined ? undefined : `the same audio as track ${same + 1} (${tracks[same]!.shown}); each track needs its own recording`;
}
