// Carries out a release plan: create the draft, upload every track, attach them, apply delivery
// and video. All or nothing: if any step fails, the draft is deleted and the error says exactly
// what happened; the wizard alone keeps it (keepDraft), to save its answers. Ctrl-C always
// leaves nothing.
import type { ApiClient } from '../../../client/index.js';
import type {
  CreateReleaseRequest,
  EntityId,
  ReleaseResource,
  ReplaceReleaseTracksTrackInput,
  UpdateReleaseDeliveryRequest,
  UpdateReleaseVideoRequest,
} from '../../../contract/index.js';
import type { Context } from '../../context.js';
import type { UploadFlags } from '../../shared/upload-settings.js';
import { describeError } from '../../describe-error.js';
import { CliError, ExitCode, type FileProblem } from '../../errors.js';
import { isFailure, uploadCover, uploadOne, type Uploaded } from '../../shared/upload.js';
import { isEmpty } from './build.js';
import { plural } from '../../output/format.js';
import { writeStderr } from '../../output/index.js';

export interface PlanTrack {
  path: string;
  /** As the user wrote it, for messages. */
  shown: string;
  fields: Omit<ReplaceReleaseTracksTrackInput, 'id' | 'file_key' | 'title'> & { title?: string | undefined };
}

export interface CreatePlan {
  /** Where the plan came from, for messages ("release.yaml", "the wizard", "flags"). */
  source: string;
  release: CreateReleaseRequest;
  /** The cover image to upload once the draft exists (--artwork, `artwork: cover.jpg`); `shown` as the user wrote it. */
  artwork?: { path: string; shown: string; where?: string } | undefined;
  tracks: PlanTrack[];
  delivery?: UpdateReleaseDeliveryRequest | undefined;
  video?: UpdateReleaseVideoRequest | undefined;
}

/** Steps on stderr for a person at a terminal; scripts get the result only. */
export function step(ctx: Context, message: string): void {
  if (ctx.io.stderrIsTTY && !ctx.globals.quiet) writeStderr(ctx, `${message}\n`);
}

class StepFailed extends Error {
  constructor(
    readonly what: string,
    readonly inner: unknown,
    readonly exitCode: number,
    readonly hint?: string,
    readonly files: FileProblem[] = [],
  ) {
    super(what);
  }
}

/** A step failed after the draft existed and the draft was kept (the wizard's answers are not lost). */
export class DraftKept extends CliError {
  constructor(
    message: string,
    readonly draftId: EntityId,
    exitCode: number,
    hint?: string,
    files: FileProblem[] = [],
  ) {
    super(message, { exitCode: exitCode as ExitCode, code: 'create_failed', files, ...(hint ? { hint } : {}) });
  }
}

/**
 * `keepDraft`: when a step fails after the draft exists (not on Ctrl-C, which always leaves
 * nothing), the draft stays and a DraftKept error says so; otherwise it is deleted.
 */
export async function executePlan(
  ctx: Context,
  client: ApiClient,
  plan: CreatePlan,
  titles: readonly string[],
  options: { keepDraft?: boolean; upload?: UploadFlags } = {},
): Promise<ReleaseResource> {
  const created = await createDraft(ctx, client, plan);
  const id = created.id;
  // A progress line only when more steps follow; the command's own summary says the rest.
  const moreSteps = plan.tracks.length > 0 || plan.artwork !== undefined || !isEmpty(plan.delivery) || !isEmpty(plan.video);
  if (moreSteps) step(ctx, `Created draft release ${id} "${created.title}"`);
  try {
    if (plan.tracks.length > 0) {
      const results = [];
      for (const [i, t] of plan.tracks.entries())
        results.push(await uploadOne(ctx, client, id, t.path, t.shown, options.upload, 'create', { file: i + 1, files: plan.tracks.length }));
      const failures = results.filter(isFailure);
      if (failures.length > 0) {
        const files = failures.map((f) => ({ file: plan.tracks.find((t) => t.path === f.path)?.shown ?? f.path, code: f.code, message: f.reason }));
        const n = failures.length;
        throw new StepFailed(
          `${n} of ${results.length} audio file${results.length === 1 ? ' was' : 's were'} ${failures.every((f) => f.exitCode === ExitCode.validation) ? 'refused' : 'not uploaded'} (${failures.map((f) => plan.tracks.find((t) => t.path === f.path)?.shown ?? f.path).join(', ')})`,
          undefined,
          failures.every((f) => f.exitCode === ExitCode.validation) ? ExitCode.validation : (failures[0]!.exitCode as number),
          'the reasons are listed above; fix or replace those files and run again',
          files,
        );
      }
      const uploaded = results as Uploaded[];
      const tracks = plan.tracks.map((t, i) => ({ ...t.fields, title: titles[i]!, file_key: uploaded[i]!.key, position: t.fields.position ?? i + 1 }));
      await attempt('attaching the tracks', () => client.call('replaceReleaseTracks', { params: { releaseId: id }, body: { tracks } }));
      await Promise.all(uploaded.map((u) => u.attached()));
      step(ctx, `Attached ${plural(tracks.length, 'track')}`);
    }
    const artwork = plan.artwork;
    if (artwork) {
      const cover = await uploadCover(ctx, client, id, artwork.path, artwork.shown);
      if (isFailure(cover)) {
        throw new StepFailed(
          `the cover ${artwork.shown} was ${cover.exitCode === ExitCode.validation ? 'refused' : 'not uploaded'}`,
          undefined,
          cover.exitCode,
          "the reason is listed above; 'reldist artwork check FILE' shows what the image is",
          [{ file: artwork.shown, code: cover.code, message: cover.reason }],
        );
      }
      step(ctx, `Set the cover ${artwork.shown}`);
    }
    const delivery = plan.delivery;
    if (delivery && !isEmpty(delivery)) {
      await attempt('saving the delivery settings', () => client.call('updateReleaseDelivery', { params: { releaseId: id }, body: delivery }));
      step(ctx, 'Saved the delivery settings');
    }
    const video = plan.video;
    if (video && !isEmpty(video)) {
      await attempt('saving the video settings', () => client.call('updateReleaseVideo', { params: { releaseId: id }, body: video }));
      step(ctx, 'Saved the video settings');
    }
    return await attempt('reading the release back', () => client.call('getRelease', { params: { releaseId: id } }));
  } catch (err) {
    const failed = err instanceof StepFailed ? err : new StepFailed('the upload', err, describeError(err, { debug: false }).exitCode);
    const reason = failed.inner === undefined ? failed.what : `${failed.what} failed: ${describeError(failed.inner, { debug: false }).message}`;
    const interrupted = ctx.signal.aborted;
    if (options.keepDraft && !interrupted) {
      throw new DraftKept(
        `could not finish the release from ${plan.source}: ${reason}; the draft release ${id} "${created.title}" is kept with what was done`,
        id,
        failed.exitCode,
        failed.hint,
        failed.files,
      );
    }
    const undo = await deleteDraft(ctx, client, id);
    throw new CliError(`${interrupted ? 'interrupted' : `could not create the release from ${plan.source}`}: ${interrupted ? '' : `${reason}; `}${undo}`, {
      exitCode: (interrupted ? ExitCode.interrupted : failed.exitCode) as ExitCode,
      code: interrupted ? 'interrupted' : 'create_failed',
      ...(failed.hint && !interrupted ? { hint: failed.hint } : {}),
      ...(interrupted ? {} : { files: failed.files }),
    });
  }
}

/**
 * Creates the draft so that Ctrl-C never leaves one behind. A request cut off by Ctrl-C may
 * still have created the release, with its id lost: the same request is then sent again under
 * the same Idempotency-Key on a client that still works (the service answers with the release
 * it made, or makes it now), and that draft is deleted.
 */
async function createDraft(ctx: Context, client: ApiClient, plan: CreatePlan): Promise<ReleaseResource> {
  const interrupted = (what: string) => new CliError(`interrupted: ${what}`, { exitCode: ExitCode.interrupted, code: 'interrupted' });
  if (ctx.signal.aborted) throw interrupted('nothing was created');
  const idempotencyKey = globalThis.crypto.randomUUID();
  let created: ReleaseResource;
  try {
    created = await client.call('createRelease', { body: plan.release, idempotencyKey });
  } catch (err) {
    if (!ctx.signal.aborted) throw err;
    const task = {
      doing: 'finding out whether a draft release was created',
      leftover: 'a draft release may have been created; check with `reldist release list --status draft`',
    };
    created = await ctx.cleanUp(task, async () => {
      const own = await ctx.services.cleanupClient();
      try {
        return await own.call('createRelease', { body: plan.release, idempotencyKey });
      } catch (again) {
        throw interrupted(`whether a draft was created is unknown (${describeError(again, { debug: false }).message}); check with \`reldist release list\``);
      } finally {
        await own.close();
      }
    });
  }
  if (ctx.signal.aborted) throw interrupted(await deleteDraft(ctx, client, created.id));
  return created;
}

async function attempt<T>(what: string, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    const d = describeError(err, { debug: false });
    throw new StepFailed(what, err, d.exitCode, d.hint);
  }
}

/** Deletes the draft made by this run (guarded against a second Ctrl-C); says what became of it. */
function deleteDraft(ctx: Context, client: ApiClient, id: EntityId): Promise<string> {
  const task = {
    doing: `deleting the draft release ${id}`,
    leftover: `the draft release ${id} remains; delete it with \`reldist release delete ${id} --yes\``,
  };
  return ctx.cleanUp(task, () => deleteDraftNow(ctx, client, id));
}

async function deleteDraftNow(ctx: Context, client: ApiClient, id: EntityId): Promise<string> {
  let c = client;
  let own: ApiClient | undefined;
  if (ctx.signal.aborted) {
    // The command's client stops with Ctrl-C; the clean-up needs one that still works.
    own = c = await ctx.services.cleanupClient();
  }
  try {
    await c.call('deleteRelease', { params: { releaseId: id } });
    return `the draft release ${id} was deleted, nothing was kept`;
  } catch (err) {
    return `deleting the draft release ${id} failed too (${describeError(err, { debug: false }).message}); delete it with \`reldist release delete ${id} --yes\``;
  } finally {
    await own?.close();
  }
}
