// `release edit`: up to three PATCHes, all checked first; a failure restores what was changed.
import type { z } from 'zod';
import type { EntityId, ReleaseResource } from '../../../contract/index.js';
import { UpdateReleaseDeliveryRequest, UpdateReleaseMetadataRequest, UpdateReleaseVideoRequest } from '../../../contract/index.js';
import type { Context } from '../../context.js';
import { describeError } from '../../describe-error.js';
import { CliError, UsageError } from '../../errors.js';
import { lineOf, loadDataFileWithLines } from '../../shared/data-file.js';
import { checkAtDoor, fileLocate, pathParts, type Locate } from '../../shared/field-checks.js';
import { eitherLocate, flagLocate } from './flag-doors.js';
import { deliveryFromFlags, isEmpty, metadataFromFlags, videoFromFlags } from './build.js';
import { parseReleaseRef, releaseIdOf } from '../../shared/release-ref.js';
import type { EditOpts } from './spec.js';
import { showRelease } from './show.js';
import { plural, success, writeStderr } from '../../output/index.js';
import type { ApiClient } from '../../../client/index.js';
import type { ArtistCredit } from '../../../contract/index.js';
import { applyCreditChanges, ARTIST_ROLES, creditChanges, FLAG_OF_ROLE, type CreditChanges } from '../../shared/credits.js';
import { keepTrack, writeTrackList } from '../../shared/track-list-write.js';
import { artistsText } from '../../shared/release-views.js';
import { promptConfirm } from '../../prompts.js';
import { resolve } from 'node:path';
import { checkCoverBeforeUpload } from '../../shared/artwork-check.js';
import { isFailure, uploadCover } from '../../shared/upload.js';

type Part = 'metadata' | 'delivery' | 'video';
const ENDPOINT = { metadata: 'updateReleaseMetadata', delivery: 'updateReleaseDelivery', video: 'updateReleaseVideo' } as const;

/** A part's file, and where its values are (`file:line: path`) for the rules' paths under `prefix`. */
async function fromFile<S extends z.ZodType>(
  ctx: Context,
  path: string | undefined,
  flag: string,
  schema: S,
  prefix: string[] = [],
): Promise<{ value: Partial<z.output<S>>; locate: Locate }> {
  if (path === undefined) return { value: {}, locate: () => undefined };
  const { value, parsed } = await loadDataFileWithLines(path, flag, schema, ctx.io.stdin);
  const toFilePath = (p: string) => {
    const parts = pathParts(p);
    return prefix.every((seg, i) => parts[i] === seg) ? parts.slice(prefix.length) : undefined;
  };
  return { value, locate: fileLocate(parsed.name, parsed.value, (p) => lineOf(parsed, p), toFilePath) };
}

/** The values a PATCH would need to put back: the same keys, read from the release before. */
function previousOf(part: Part, before: ReleaseResource, body: Record<string, unknown>): Record<string, unknown> {
  const source: Record<string, unknown> = part === 'metadata' ? before : part === 'delivery' ? before.delivery : before.video;
  return Object.fromEntries(Object.keys(body).map((k) => [k, source[k] ?? null]));
}

export async function run(ctx: Context, opts: EditOpts, args: string[]): Promise<void> {
  parseReleaseRef(args[0]);
  const stdinUsers = [opts.metadata, opts.delivery, opts.video].filter((p) => p === '-').length;
  if (stdinUsers > 1) throw new UsageError('only one of --metadata, --delivery and --video can read standard input ("-")');
  // Flags win over files, field by field (nested settings are replaced whole).
  const files = {
    metadata: await fromFile(ctx, opts.metadata, '--metadata', UpdateReleaseMetadataRequest),
    delivery: await fromFile(ctx, opts.delivery, '--delivery', UpdateReleaseDeliveryRequest, ['delivery']),
    video: await fromFile(ctx, opts.video, '--video', UpdateReleaseVideoRequest),
  };
  // Credits go by role (credits.ts): each role given replaces that role's names, the others stay.
  const credits = creditChanges(opts, ARTIST_ROLES);
  const flags = {
    metadata: metadataFromFlags({ ...opts, artist: undefined, featuring: undefined, with: undefined, remixer: undefined }),
    delivery: deliveryFromFlags(opts),
  };
  const bodies = {
    metadata: { ...files.metadata.value, ...flags.metadata },
    delivery: { ...files.delivery.value, ...flags.delivery },
    video: { ...files.video.value, ...videoFromFlags(opts) },
  } satisfies Record<Part, object>;
  const parts = (['metadata', 'delivery', 'video'] as const).filter((p) => !isEmpty(bodies[p]) || (p === 'metadata' && credits.size > 0));
  if (parts.length === 0 && opts.artwork === undefined) {
    throw new UsageError(
      'nothing to change',
      'pass fields as flags (e.g. --title, --release-date, --video-enabled, --artwork) or files with --metadata, --delivery or --video',
    );
  }
  // The cover from its bytes before anything is sent: what the service would refuse stops here.
  const cover = opts.artwork === undefined ? undefined : { path: resolve(opts.artwork), shown: opts.artwork };
  if (cover) await checkCoverBeforeUpload(ctx, cover, '--artwork', 'nothing was changed');
  const client = await ctx.services.client();
  const id = await releaseIdOf(client, args[0], ctx.signal);
  // Read first, so that a refused second part can put the first one back, and credits change by role.
  const before = parts.length > 1 || credits.size > 0 ? await client.call('getRelease', { params: { releaseId: id } }) : undefined;
  if (credits.size > 0) {
    bodies.metadata.artists = applyCreditChanges(
      before!.artists.map(({ name, role, artist_id }) => ({ name, role, ...(artist_id !== undefined ? { artist_id } : {}) })),
      credits,
      ARTIST_ROLES,
      (name, role) => ({ name, role: role as ArtistCredit['role'] }),
    );
  }
  // The submit's field rules on the values given, before anything is sent.
  const merged = bodies.metadata.artists ?? [];
  const locate = eitherLocate(
    (path) => {
      const m = /^artists(?:\.(\d+))?/.exec(path);
      if (!m || credits.size === 0) return undefined;
      const role = m[1] === undefined ? 'primary' : merged[Number(m[1])]?.role;
      return role !== undefined && credits.has(role) ? FLAG_OF_ROLE[role] : undefined;
    },
    flagLocate(flags.metadata, flags.delivery),
    files.metadata.locate,
    files.delivery.locate,
  );
  checkAtDoor(ctx, { release: { ...bodies.metadata, delivery: bodies.delivery }, locate, now: ctx.now() }, 'nothing was changed');
  // The tracks carry artists of their own: say what becomes of them, and offer to change them too.
  const trackPlan = credits.size > 0 ? await tracksToo(ctx, client, id, before!.artists, credits, opts.tracksToo) : undefined;
  const done: Part[] = [];
  let release: ReleaseResource | undefined;
  for (const part of parts) {
    try {
      release = await client.call(ENDPOINT[part], { params: { releaseId: id }, body: bodies[part] });
      done.push(part);
    } catch (err) {
      if (done.length === 0) throw err;
      const d = describeError(err, { debug: false });
      const undone: Part[] = [];
      const kept: string[] = [];
      for (const p of done.reverse()) {
        try {
          await client.call(ENDPOINT[p], { params: { releaseId: id }, body: previousOf(p, before!, bodies[p]) });
          undone.push(p);
        } catch (e) {
          kept.push(`${p} (could not restore: ${describeError(e, { debug: false }).message})`);
        }
      }
      const what =
        kept.length === 0
          ? `the ${undone.join(' and ')} change${undone.length === 1 ? ' was' : 's were'} undone, nothing changed`
          : `still changed: ${kept.join('; ')}`;
      throw new CliError(`release ${id}: ${part} refused: ${d.message}; ${what}`, {
        exitCode: d.exitCode as never,
        code: d.code,
        ...(d.hint ? { hint: d.hint } : {}),
      });
    }
  }
  if (parts.length > 0) success(ctx, `Updated ${parts.join(', ')} of release ${id}`);
  if (trackPlan) release = await changeTracks(ctx, client, id, before!.artists, credits);
  // Last: the fields above are saved whatever becomes of the upload, and the error says so.
  if (cover) {
    const set = await uploadCover(ctx, client, id, cover.path, cover.shown);
    if (isFailure(set)) {
      throw new CliError(
        `release ${id}: the cover ${cover.shown} was not set: ${set.reason}${parts.length > 0 ? `; the ${parts.join(', ')} change was saved` : ''}`,
        {
          exitCode: set.exitCode as never,
          code: set.code,
          hint: `'reldist artwork check ${cover.shown}' shows what the image is; run 'reldist release edit ${id} --artwork ${cover.shown}' again once it is fixed`,
        },
      );
    }
    release = set.release;
    success(ctx, `Set the cover of release ${id} to ${cover.shown}`);
  }
  await showRelease(ctx, release!);
}

interface TracksToo {
  /** Change the tracks that credit what the release did (for the roles changed). */
  change: boolean;
}

/** Whether a track credits a role exactly as the release did (same names, any case): it followed the release. */
function follows(track: readonly ArtistCredit[], release: readonly ArtistCredit[], role: string): boolean {
  const names = (list: readonly ArtistCredit[]) =>
    list
      .filter((a) => a.role === role)
      .map((a) => a.name.trim().toLowerCase())
      .sort()
      .join('\n');
  return names(track) === names(release);
}

/**
 * The tracks' artists after a change of the release's: with --tracks-too the tracks that credited
 * the same artists change too, with --no-tracks-too they keep theirs; on a terminal, asked; else
 * said, with the flag to pass. Nothing is asked when no track credits what the release did.
 */
async function tracksToo(
  ctx: Context,
  client: ApiClient,
  id: EntityId,
  old: readonly ArtistCredit[],
  credits: CreditChanges,
  flag: boolean | undefined,
): Promise<TracksToo | undefined> {
  const tracks = await client.call('listTracks', { params: { releaseId: id }, signal: ctx.signal });
  const roles = [...credits.keys()];
  const following = tracks.filter((t) => roles.some((r) => follows(t.artists, old, r)));
  if (following.length === 0) return undefined;
  const was = artistsText(old.filter((a) => credits.has(a.role))) || 'no one';
  const which = following.length === tracks.length ? `all ${plural(tracks.length, 'track')}` : `${following.length} of ${plural(tracks.length, 'track')}`;
  let change = flag;
  if (change === undefined && ctx.canPrompt && !ctx.globals.json) {
    change = await promptConfirm(ctx, {
      message: `${which} of release ${id} credit ${was} as the release did; change them too?`,
      default: true,
      flag: '--tracks-too',
    });
  }
  if (change === undefined) {
    if (!ctx.globals.quiet)
      writeStderr(
        ctx,
        `note: the tracks keep their own artists: ${which} still credit ${was}; pass --tracks-too to change them as well, or --no-tracks-too to say they stay\n`,
      );
    return undefined;
  }
  return change ? { change } : undefined;
}

/** The same role changes on the tracks that credited what the release did (the list written with If-Match). */
async function changeTracks(ctx: Context, client: ApiClient, id: EntityId, old: readonly ArtistCredit[], credits: CreditChanges): Promise<ReleaseResource> {
  let changed = 0;
  try {
    const release = await writeTrackList(ctx, client, id, (current) => {
      changed = 0;
      return {
        tracks: current.map((t) => {
          const roles: CreditChanges = new Map([...credits].filter(([role]) => follows(t.artists, old, role)));
          if (roles.size === 0) return keepTrack(t);
          changed++;
          return {
            ...keepTrack(t),
            artists: applyCreditChanges(t.artists, roles, ARTIST_ROLES, (name, role) => ({ name, role: role as ArtistCredit['role'] })),
          };
        }),
      };
    });
    success(ctx, `Changed the artists of ${plural(changed, 'track')} of release ${id} the same way`);
    return release;
  } catch (err) {
    const d = describeError(err, { debug: false });
    throw new CliError(`release ${id}: its artists changed, but its tracks' did not: ${d.message}`, {
      exitCode: d.exitCode as never,
      code: d.code,
      hint: `change them with \`reldist track edit ${id} <track> --artist NAME\``,
    });
  }
}
