// `release create`: builds a plan (file + flags, flags alone, or the wizard) and carries it out.
import type { ReleaseResource } from '../../../contract/index.js';
import type { Context } from '../../context.js';
import { describeError } from '../../describe-error.js';
import { printJson, success, warn, plural } from '../../output/index.js';
import { displayPath, loadReleaseFile } from '../../release-file/load.js';
import { refuseLocally } from '../../shared/audio-check.js';
import { resolve } from 'node:path';
import { checkCoverBeforeUpload } from '../../shared/artwork-check.js';
import { executePlan, type CreatePlan } from './create-steps.js';
import { saveReleaseFile } from '../../release-file/write.js';
import { planProblems } from './plan-checks.js';
import { countProblems } from './problems.js';
import { inCliTerms } from '../../service-text.js';
import { titleFrom } from '../../shared/audio-title.js';
import { ExitCode } from '../../errors.js';
import { keepAnswers } from './keep-answers.js';
import { catalogNumberTakenError } from './catalog-taken.js';
import { createFromFlags, deliveryFromFlags, isEmpty, metadataFromFlags, videoFromFlags } from './build.js';
import { checkAtDoor, warnAtDoor } from '../../shared/field-checks.js';
import { flagLocate } from './flag-doors.js';

import type { CreateOpts } from './spec.js';
import { showRelease } from './show.js';
import { publicOf, reportOutcomes, submitOne, toSandbox } from './submission.js';
import { partSettings } from '../../shared/upload-settings.js';
import { runWizard, saveProfiles, summary, type WizardResult } from './wizard.js';

function merge<T extends object>(a: T | undefined, b: T): T | undefined {
  const out = { ...(a ?? {}), ...b } as T;
  return isEmpty(out) ? undefined : out;
}

async function planFromFile(ctx: Context, opts: CreateOpts, path: string): Promise<CreatePlan> {
  // --check runs every submit check on the plan and reports them all (exit 3): no door refuses first.
  const judge = !opts.check;
  const file = await loadReleaseFile(path, { stdin: ctx.io.stdin, now: ctx.now(), judge });
  const flags = metadataFromFlags(opts);
  const deliveryFlags = deliveryFromFlags(opts);
  // The file's values were judged as it loaded; a flag's value wins over it, and is judged here.
  if (judge) {
    warnAtDoor(
      ctx,
      (file.warnings ?? []).filter((w) => flagLocate(flags, deliveryFlags)(w.problem.path) === undefined),
    );
    checkAtDoor(
      ctx,
      { release: { ...file.release, ...flags, delivery: { ...file.delivery, ...deliveryFlags } }, locate: flagLocate(flags, deliveryFlags), now: ctx.now() },
      'nothing was created',
    );
  }
  // --artwork wins over the file's cover, as any flag does.
  const artwork =
    opts.artwork !== undefined
      ? { path: resolve(opts.artwork), shown: opts.artwork, where: '--artwork' }
      : file.artwork
        ? { path: file.artwork.path, shown: file.artwork.written, where: `${file.name}: artwork` }
        : undefined;
  return {
    source: file.name,
    release: { ...file.release, ...flags } as CreatePlan['release'],
    artwork,
    tracks: file.tracks.map((t) => ({ path: t.path, shown: t.written, fields: t.fields })),
    delivery: merge(file.delivery, deliveryFlags),
    video: merge(file.video, videoFromFlags(opts)),
  };
}

function anyFlag(opts: CreateOpts): boolean {
  const { file: _f, submit: _s, check: _c, save: _v, ...fields } = opts;
  return Object.values(fields).some((v) => v !== undefined);
}

export async function run(ctx: Context, opts: CreateOpts): Promise<void> {
  let plan: CreatePlan;
  let wizard: WizardResult | undefined;
  // A bad upload setting is said before a question is asked or anything is sent.
  partSettings(ctx.env, opts);
  if (opts.file !== undefined) {
    plan = await planFromFile(ctx, opts, opts.file);
  } else if (!anyFlag(opts) && ctx.canPrompt && !opts.check) {
    wizard = await runWizard(ctx, await ctx.services.client());
    plan = wizard.plan;
  } else {
    const metadata = metadataFromFlags(opts);
    const delivery = deliveryFromFlags(opts);
    const video = videoFromFlags(opts);
    plan = {
      source: 'the flags',
      release: createFromFlags(metadata),
      ...(opts.artwork !== undefined ? { artwork: { path: resolve(opts.artwork), shown: opts.artwork, where: '--artwork' } } : {}),
      tracks: [],
      delivery,
      video,
    };
    if (!opts.check)
      checkAtDoor(ctx, { release: { ...plan.release, delivery }, locate: flagLocate(metadata, delivery), now: ctx.now() }, 'nothing was created');
  }

  // Saved first, so that the answers are kept whatever happens next.
  if (opts.save !== undefined) {
    await saveReleaseFile(plan, opts.save);
    success(ctx, `Saved ${wizard ? 'the answers' : 'the release'} to ${opts.save}`);
  }

  // After the wizard's questions, whatever fails keeps the answers in a release file (keep-answers.ts).
  const afterAnswers = <T>(work: () => Promise<T>): Promise<T> =>
    wizard === undefined
      ? work()
      : work().catch(async (err: unknown) => {
          throw await keepAnswers(ctx, () => ctx.services.client(), plan, err, opts.save);
        });

  // The service's audio rules, offline: a file it would refuse is refused before anything is created.
  const checks =
    plan.tracks.length > 0
      ? await afterAnswers(() =>
          refuseLocally(
            plan.tracks.map((t) => ({ path: t.path, shown: t.shown })),
            'nothing was created',
          ),
        )
      : [];
  // The cover from its bytes, as the service will read it: what it would refuse stops here, before anything is created.
  const artwork = plan.artwork;
  const cover = artwork ? await afterAnswers(() => checkCoverBeforeUpload(ctx, artwork, artwork.where ?? '--artwork', 'nothing was created')) : undefined;
  // A track without a title takes its tags' (read by that same check), else its file's name.
  const titles = plan.tracks.map((t, i) => t.fields.title ?? titleFrom(checks[i]!.title, t.path));

  if (opts.check) {
    // Every check the submit would run, offline; a plan it would block exits 3 with its problems.
    const problems = planProblems(plan, titles, checks, ctx.now(), cover?.facts);
    if (countProblems(problems).errors > 0) {
      const outcome = {
        release_id: plan.source,
        offline: true as const,
        outcome: 'blocked' as const,
        status: null,
        message: `${plan.source} would be blocked at submit`,
        problems,
        error: null,
        exit: ExitCode.validation,
      };
      await reportOutcomes(ctx, [outcome], { dryRun: true, single: true });
      return;
    }
    const shown = {
      release: plan.release,
      tracks: plan.tracks.map((t) => ({ file: displayPath(t.path), ...t.fields })),
      delivery: plan.delivery ?? null,
      video: plan.video ?? null,
    };
    if (ctx.globals.json) printJson(ctx, shown);
    else {
      ctx.io.stdout.write(`${summary(plan, [])}\n`);
    }
    for (const p of problems) warn(ctx, `${p.path}: ${inCliTerms(p.message)}`);
    success(ctx, `${plan.source}: no ${problems.length > 0 ? 'blocking ' : ''}problems found; nothing was sent`);
    return;
  }

  const client = await ctx.services.client();
  const release: ReleaseResource = await afterAnswers(() =>
    executePlan(ctx, client, plan, titles, { keepDraft: wizard !== undefined, upload: opts }).catch((err: unknown) => {
      if (wizard !== undefined) throw err;
      throw catalogNumberTakenError(err, plan.release.catalog_number, opts.file !== undefined && opts.file !== '-' ? opts.file : undefined) ?? err;
    }),
  );
  const n = release.tracks?.length ?? release.track_count;
  success(ctx, `Created release ${release.id} "${release.title}" (${release.status}) with ${plural(n, 'track')}`);
  if (wizard && wizard.profiles.length > 0) {
    try {
      await saveProfiles(client, wizard);
      success(ctx, `Saved ${wizard.artistName}'s platform profiles`);
    } catch (err) {
      warn(
        ctx,
        `the release was created, but saving ${wizard.artistName}'s platform profiles failed: ${describeError(err, { debug: false }).message}; set them with \`reldist prefs\``,
      );
    }
  }

  if (!opts.submit) return showRelease(ctx, release);
  const outcome = await submitOne(client, release.id, { dryRun: false });
  const after = outcome.outcome === 'submitted' ? await client.call('getRelease', { params: { releaseId: release.id } }) : release;
  if (ctx.globals.json) printJson(ctx, { release: after, submit: publicOf(outcome, await toSandbox(ctx)) });
  else await showRelease(ctx, after);
  if (!ctx.globals.json && ctx.io.stdoutIsTTY) ctx.io.stdout.write('\n');
  if (outcome.outcome === 'failed') throw outcome.cause;
  // The draft stays when the submit is blocked: it is complete, only its problems need fixing.
  // Piped, stdout carries the release record; the submit's problems go to stderr as lines.
  const out = ctx.globals.json || ctx.io.stdoutIsTTY ? ctx : { ...ctx, io: { ...ctx.io, stdout: ctx.io.stderr, stdoutIsTTY: true } };
  await reportOutcomes(out, [outcome], { dryRun: false, single: true, printJson: false });
}
