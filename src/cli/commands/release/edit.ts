// `release edit`: up to three PATCHes, all checked first; a failure restores what was changed.
import type { z } from 'zod';
import type { ReleaseResource } from '../../../contract/index.js';
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
import { success } from '../../output/index.js';

type Part = 'metadata' | 'delivery' | 'video';
const ENDPOINT = { metadata: 'updateReleaseMetadata', delivery: 'updateReleaseDelivery', video: 'updateReleaseVideo' } as const;

/** A part's file, and where its values are (`file:line: path`) for the rules' paths under `prefix`. */
async function fromFile<S extends z.ZodType>(ctx: Context, path: string | undefined, flag: string, schema: S, prefix: string[] = []): Promise<{ value: Partial<z.output<S>>; locate: Locate }> {
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
  const flags = { metadata: metadataFromFlags(opts), delivery: deliveryFromFlags(opts) };
  const bodies = {
    metadata: { ...files.metadata.value, ...flags.metadata },
    delivery: { ...files.delivery.value, ...flags.delivery },
    video: { ...files.video.value, ...videoFromFlags(opts) },
  } satisfies Record<Part, object>;
  const locate = eitherLocate(flagLocate(flags.metadata, flags.delivery), files.metadata.locate, files.delivery.locate);
  const parts = (['metadata', 'delivery', 'video'] as const).filter((p) => !isEmpty(bodies[p]));
  if (parts.length === 0) {
    throw new UsageError('nothing to change', 'pass fields as flags (e.g. --title, --release-date, --video-enabled) or files with --metadata, --delivery or --video');
  }
  const client = await ctx.services.client();
  const id = await releaseIdOf(client, args[0], ctx.signal);
  // Read first, so that a refused second part can put the first one back.
  const keepPrimaries = opts.artist === undefined && (opts.featuring ?? opts.with ?? opts.remixer) !== undefined;
  const before = parts.length > 1 || keepPrimaries ? await client.call('getRelease', { params: { releaseId: id } }) : undefined;
  if (keepPrimaries) {
    // --featuring alone adds to the credits: the primary artists stay.
    const credits = bodies.metadata.artists ?? [];
    bodies.metadata.artists = [...before!.artists.filter((a) => a.role === 'primary').map(({ name, role, artist_id }) => ({ name, role, ...(artist_id !== undefined ? { artist_id } : {}) })), ...credits];
  }
  // The submit's field rules on the values given, before anything is sent.
  // The primaries kept ahead of --featuring's credits are the release's, not this edit's.
  const keptAhead = keepPrimaries ? (bodies.metadata.artists?.length ?? 0) - (flags.metadata.artists?.length ?? 0) : 0;
  const given: Locate = (path) => {
    const m = /^artists\.(\d+)(.*)$/.exec(path);
    if (!m || keptAhead === 0) return locate(path);
    const i = Number(m[1]) - keptAhead;
    return i < 0 ? undefined : locate(`artists.${i}${m[2]}`);
  };
  checkAtDoor(ctx, { release: { ...bodies.metadata, delivery: bodies.delivery }, locate: given, now: ctx.now() }, 'nothing was changed');
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
      const what = kept.length === 0 ? `the ${undone.join(' and ')} change${undone.length === 1 ? ' was' : 's were'} undone, nothing changed` : `still changed: ${kept.join('; ')}`;
      throw new CliError(`release ${id}: ${part} refused: ${d.message}; ${what}`, { exitCode: d.exitCode as never, code: d.code, ...(d.hint ? { hint: d.hint } : {}) });
    }
  }
  success(ctx, `Updated ${parts.join(', ')} of release ${id}`);
  await showRelease(ctx, release!);
}
