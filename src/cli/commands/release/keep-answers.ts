// The wizard's answers are never lost: when anything fails after the questions (the create
// refused, the network, a catalog number taken meanwhile, an upload refused, Ctrl-C), they are
// written to a release file that `release create --file` and `release apply` read, under a name
// that no file has yet. At a terminal the person is asked first; after Ctrl-C (which asks for no
// more questions), or with no terminal to ask at, the file is written and the error names it.
import type { ApiClient } from '../../../client/index.js';
import type { Context } from '../../context.js';
import { describeError } from '../../describe-error.js';
import { CliError, ExitCode } from '../../errors.js';
import { success, warn } from '../../output/index.js';
import { promptConfirm } from '../../prompts.js';
import { displayPath } from '../../release-file/load.js';
import { candidateNames, fileStem, saveReleaseFileFree } from '../../release-file/write.js';
import { catalogNumberHolder, catalogNumberTakenError, shellWord } from './catalog-taken.js';
import { DraftKept, type CreatePlan } from './create-steps.js';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

/** How long reading the title of a catalog number's holder may take, on the way to an error. */
const HOLDER_TITLE_MS = 3000;

/**
 * What to throw for `err`, a failure after the wizard's questions: the same failure, its hint
 * saying where the answers are and the command that goes on from them. `savedTo`: --save wrote
 * them already.
 */
export async function keepAnswers(
  ctx: Context,
  client: () => Promise<ApiClient>,
  plan: CreatePlan,
  err: unknown,
  savedTo: string | undefined,
): Promise<unknown> {
  const file = savedTo ?? (await saveAnswers(ctx, plan));
  const shown = file === undefined ? undefined : shellWord(displayPath(file));
  if (err instanceof DraftKept) return draftKept(plan, err, shown);
  if (catalogNumberHolder(err) && plan.release.catalog_number) {
    const title = ctx.signal.aborted ? undefined : await holderTitle(await client(), catalogNumberHolder(err)!.releaseId);
    return catalogNumberTakenError(err, plan.release.catalog_number, shown, title);
  }
  if (shown === undefined) return err;
  const d = describeError(err, { debug: ctx.globals.debug });
  // Nothing was created (a draft made before Ctrl-C is deleted, and the error says so): the file
  // makes it. With a catalog number, apply: it finds a release this run may have made after all.
  const next = plan.release.catalog_number
    ? `your answers are in ${shown}: \`reldist release apply ${shown}\` creates the release from them (safe to run again)`
    : `your answers are in ${shown}: \`reldist release create --file ${shown}\` creates the release from them`;
  return new CliError(d.message, {
    exitCode: d.exitCode as ExitCode,
    code: d.code,
    hint: d.exitCode === ExitCode.interrupted || !d.hint ? next : `${d.hint}; ${next}`,
    details: d.details,
    files: d.files,
    cause: err,
  });
}

/** The draft is kept with what was done: the file finishes it (apply finds it by catalog number) or replaces it. */
function draftKept(plan: CreatePlan, err: DraftKept, shown: string | undefined): CliError {
  const id = err.draftId;
  const next =
    shown === undefined
      ? `finish the draft with \`reldist track upload ${id} FILE\` and \`reldist release edit ${id}\`, or delete it: \`reldist release delete ${id} --yes\``
      : plan.release.catalog_number
        ? `fix what is said above in ${shown}, then \`reldist release apply ${shown}\` finishes the draft ${id}`
        : `fix what is said above in ${shown}, then \`reldist release delete ${id} --yes\` and \`reldist release create --file ${shown}\``;
  return new CliError(err.message, { exitCode: err.exitCode, code: 'create_failed', hint: next, files: err.files });
}

/**
 * Offers to save the answers (asks at a terminal; writes without asking after Ctrl-C or with no
 * terminal) in the current folder; answers the path written, or undefined when declined or when
 * writing failed (said in a warning).
 */
async function saveAnswers(ctx: Context, plan: CreatePlan): Promise<string | undefined> {
  const dir = process.cwd();
  const stem = fileStem(plan.release.title);
  const ask = ctx.canPrompt && !ctx.signal.aborted;
  if (ask) {
    const proposed = candidateNames(stem).find((name) => !existsSync(join(dir, name))) ?? `${stem}.yaml`;
    const yes = await promptConfirm(ctx, { message: `Save your answers to ${proposed} (a release file)?`, default: true, flag: '--save' }).catch(() => false);
    if (!yes) return undefined;
  }
  try {
    const path = await saveReleaseFileFree(plan, dir, stem);
    success(ctx, `Saved your answers to ${displayPath(path)}`);
    return path;
  } catch (err) {
    warn(ctx, `could not save your answers in ${dir}: ${describeError(err, { debug: false }).message}`);
    return undefined;
  }
}

/** The title of the release holding a catalog number, when it can be read quickly; undefined otherwise. */
async function holderTitle(client: ApiClient, releaseId: number): Promise<string | undefined> {
  try {
    const r = await client.call('getRelease', { params: { releaseId }, signal: AbortSignal.timeout(HOLDER_TITLE_MS) });
    return r.title;
  } catch {
    return undefined;
  }
}
