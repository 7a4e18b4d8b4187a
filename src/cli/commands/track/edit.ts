// `track edit`: one track's fields changed, the rest of the list written back as it is, with
// If-Match (shared/track-list-write.ts), so an edit never undoes a simultaneous upload or edit.
import { ApiError } from '../../../client/index.js';
import { checkIsrc } from '../../../codes/index.js';
import type { ArtistCredit, Contributor, EntityId, TrackResource } from '../../../contract/index.js';
import { ARTIST_ROLES, applyCreditChanges, CONTRIBUTOR_ROLES, creditChanges, FLAG_OF_ROLE, type CreditChanges } from '../../shared/credits.js';
import { judgeAtDoor, refuseAtDoor, warnAtDoor, type DoorFinding } from '../../shared/field-checks.js';
import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';
import { printRecord, success } from '../../output/index.js';
import { choiceOption, intOption } from '../../shared/args.js';
import { parseReleaseRef, releaseIdOf } from '../../shared/release-ref.js';
import { keepTrack, writeTrackList } from '../../shared/track-list-write.js';
import { trackFields } from '../../shared/track-views.js';
import type { EditOpts } from './spec.js';

type TrackChanges = Partial<ReturnType<typeof keepTrack>>;

const EXPLICIT: readonly TrackResource['explicit'][] = ['explicit', 'not_explicit', 'clean'];

/** The flag that sets each field: the service's complaint about a field is reported against it. */
const FLAG_OF_FIELD: Record<string, string> = {
  title: '--title',
  version: '--track-version',
  isrc: '--isrc',
  explicit: '--explicit',
  audio_language: '--audio-language',
  preview_start_seconds: '--preview-start',
  artists: '--artist',
};

export async function run(ctx: Context, opts: EditOpts, args: string[]): Promise<void> {
  parseReleaseRef(args[0]);
  const ref = parseTrackRef(args[1]);
  const changes = changesFrom(opts, ctx.now().getUTCFullYear());
  const credits = creditChanges(opts, [...ARTIST_ROLES, ...CONTRIBUTOR_ROLES]);
  if (Object.keys(changes).length === 0 && credits.size === 0) {
    throw new UsageError(
      'nothing to change: give at least one of --title, --track-version, --isrc, --explicit, --audio-language, --preview-start, or a credit (--artist, --featuring, --composer, --lyricist, --producer…, --contributor ROLE=NAME)',
    );
  }
  const client = await ctx.services.client();
  const releaseId = await releaseIdOf(client, args[0], ctx.signal);
  let trackId: TrackResource['id'] | undefined;
  let blocked: DoorFinding[] = [];
  let release;
  try {
    release = await writeTrackList(ctx, client, releaseId, (current) => {
      // Found once, then followed by id: a re-read after someone reordered still edits the same track.
      const target = trackId === undefined ? findTrack(current, ref, releaseId) : current.find((t) => t.id === trackId);
      if (!target) throw new UsageError(`track ${trackId} was removed from release ${releaseId} meanwhile; nothing was changed`);
      trackId = target.id;
      const edited = { ...keepTrack(target), ...changes, ...creditsOf(target, credits) };
      const tracks = current.map((t) => (t.id === target.id ? edited : keepTrack(t)));
      // The submit's field rules on the values given, against the other tracks as they are now.
      const index = current.indexOf(target);
      const judged = judgeAtDoor({ tracks, locate: (path) => flagAt(path, index, changes, edited.artists), now: ctx.now() });
      if (judged.refused.length > 0) warnAtDoor(ctx, judged.blocked);
      refuseAtDoor(judged.refused, 'nothing was changed');
      blocked = judged.blocked;
      return { tracks };
    });
  } catch (err) {
    throw inFlagTerms(err) ?? err;
  }
  warnAtDoor(ctx, blocked);
  const editedId = trackId!;
  const track = release.tracks?.find((t) => t.id === editedId) ?? (await client.call('getTrack', { params: { releaseId, trackId: editedId } }));
  success(ctx, `Changed track ${track.id} (position ${track.disc > 1 ? `${track.disc}-` : ''}${track.position}) of release ${releaseId}`);
  await printRecord(ctx, track, trackFields);
}

type TrackRef = { kind: 'id'; id: number } | { kind: 'number'; n: number } | { kind: 'position'; disc: number; position: number };

function parseTrackRef(raw: string | undefined): TrackRef {
  const v = (raw ?? '').trim();
  let m: RegExpExecArray | null;
  if ((m = /^id:([1-9]\d{0,15})$/i.exec(v))) return { kind: 'id', id: Number(m[1]) };
  if ((m = /^([1-9]\d{0,3})-([1-9]\d{0,3})$/.exec(v))) return { kind: 'position', disc: Number(m[1]), position: Number(m[2]) };
  if ((m = /^([1-9]\d{0,15})$/.exec(v))) return { kind: 'number', n: Number(m[1]) };
  throw new UsageError(`track: expected a position (3, or 2-3 for disc 2) or an id (17 or id:17), got ${v === '' ? 'nothing' : `"${v}"`}`);
}

const shown = (t: TrackResource) => `track ${t.id} "${t.title}" at position ${t.disc > 1 ? `${t.disc}-` : ''}${t.position}`;

function findTrack(tracks: TrackResource[], ref: TrackRef, releaseId: EntityId): TrackResource {
  let found: TrackResource[];
  if (ref.kind === 'id') found = tracks.filter((t) => t.id === ref.id);
  else if (ref.kind === 'position') found = tracks.filter((t) => t.disc === ref.disc && t.position === ref.position);
  else found = tracks.filter((t) => t.id === ref.n || (t.disc === 1 && t.position === ref.n));
  if (found.length === 1) return found[0]!;
  const given = ref.kind === 'id' ? `id:${ref.id}` : ref.kind === 'position' ? `${ref.disc}-${ref.position}` : String(ref.n);
  if (found.length === 0) {
    throw new UsageError(
      `track: release ${releaseId} has no track ${given} (it has ${tracks.length} track${tracks.length === 1 ? '' : 's'})`,
      `see them with \`reldist track list ${releaseId}\``,
    );
  }
  // Only a bare number is ambiguous: the id of one track and the position of another.
  const byId = found.find((t) => String(t.id) === given)!;
  const byPosition = found.find((t) => t !== byId)!;
  throw new UsageError(
    `track: ${given} could be ${shown(byId)} or ${shown(byPosition)}`,
    `name it id:${given} for "${byId.title}", or 1-${given} for "${byPosition.title}"`,
  );
}

function changesFrom(opts: EditOpts, currentYear: number): TrackChanges {
  const c: TrackChanges = {};
  const blank = (v: string) => v.trim() === '';
  if (opts.title !== undefined) {
    if (blank(opts.title)) throw new UsageError('--title: a track needs a title, got an empty one');
    c.title = opts.title.trim();
  }
  if (opts.trackVersion !== undefined) c.version = blank(opts.trackVersion) ? null : opts.trackVersion.trim();
  if (opts.isrc !== undefined) {
    if (blank(opts.isrc)) c.isrc = null;
    else {
      // An invalid one is kept as given: the door (the submit's ISRC rule) refuses it, in its words.
      const check = checkIsrc(opts.isrc, { currentYear });
      c.isrc = check.normalized ?? opts.isrc.trim();
    }
  }
  if (opts.explicit !== undefined) c.explicit = choiceOption(opts.explicit, '--explicit', EXPLICIT);
  if (opts.audioLanguage !== undefined) {
    const v = opts.audioLanguage.trim().toLowerCase();
    if (v !== '' && v !== 'instrumental' && !/^[a-z]{2}$/.test(v)) {
      throw new UsageError(`--audio-language: expected a two-letter ISO 639-1 code (en, fr…) or instrumental, got "${opts.audioLanguage}"`);
    }
    c.audio_language = v === '' ? null : v;
  }
  if (opts.previewStart !== undefined) {
    c.preview_start_seconds = blank(opts.previewStart) ? null : intOption(opts.previewStart, '--preview-start', 0, 3600)!;
  }
  return c;
}

/** The track's artists and contributors with the roles given replaced; the others kept. */
function creditsOf(track: TrackResource, changes: CreditChanges): Pick<TrackChanges, 'artists' | 'contributors'> {
  const artistRoles = ARTIST_ROLES.filter((r) => changes.has(r));
  const contributorRoles = CONTRIBUTOR_ROLES.filter((r) => changes.has(r));
  return {
    ...(artistRoles.length > 0
      ? { artists: applyCreditChanges(track.artists, changes, ARTIST_ROLES, (name, role) => ({ name, role: role as ArtistCredit['role'] })) }
      : {}),
    ...(contributorRoles.length > 0
      ? { contributors: applyCreditChanges(track.contributors, changes, CONTRIBUTOR_ROLES, (name, role) => ({ name, role: role as Contributor['role'] })) }
      : {}),
  };
}

/** The flag that set the value at a rule's path on the edited track (index), if this edit set it. */
function flagAt(path: string, index: number, changes: TrackChanges, artists: readonly ArtistCredit[]): string | undefined {
  const m = /^tracks\.(\d+)\.([a-z_]+)(?:\.(\d+))?/.exec(path);
  if (!m || Number(m[1]) !== index) return undefined;
  const field = m[2]!;
  if (field === 'artists') return m[3] === undefined ? '--artist' : FLAG_OF_ROLE[artists[Number(m[3])]?.role ?? 'primary'];
  return field in changes ? FLAG_OF_FIELD[field] : undefined;
}

/** The service's refusal of one of the fields this command sets, named by its flag. */
function inFlagTerms(err: unknown): UsageError | undefined {
  if (!(err instanceof ApiError) || err.code !== 'validation_failed' || !err.fields) return undefined;
  const lines = Object.entries(err.fields).flatMap(([path, messages]) => {
    const field = /^tracks\.\d+\.([a-z_]+)/.exec(path)?.[1];
    const flag = field === undefined ? undefined : FLAG_OF_FIELD[field];
    return flag ? messages.map((m) => `${flag}: ${m}`) : [];
  });
  if (lines.length === 0) return undefined;
  return new UsageError(lines.join('; '));
}
