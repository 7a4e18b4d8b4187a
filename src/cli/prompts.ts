// Prompts for a person at a terminal (@inquirer/prompts, through the context's services). When prompting is
// not possible (piped, CI, --no-input) every helper throws a UsageError naming the flag to pass.
// Every prompt waits through ctx.whileAsking: --timeout does not count the time a person takes.
import type { Context } from './context.js';
import { AnswerExit, ExitCode, UsageError } from './errors.js';
import { writeStderr } from './output/width.js';

export interface PromptBase {
  message: string;
  /** How to give the answer without a prompt, e.g. `--title <title>`; named in the error. */
  flag: string;
}

function cannotPrompt(ctx: Context, p: PromptBase): never {
  const why = ctx.globals.input ? 'not a terminal' : '--no-input';
  throw new UsageError(`${p.message.replace(/[:?]\s*$/, '')}: missing (cannot prompt: ${why})`, `pass ${p.flag}`);
}

function context(ctx: Context) {
  // Prompts draw on stderr so that stdout carries data only.
  return { input: ctx.io.stdin, output: ctx.io.stderr, signal: ctx.signal, clearPromptOnDone: false };
}

/**
 * A line of text. `validate` may be async (an audio file probed, a catalog number looked up): a
 * refused answer stays on its line with the reason below it, marked as not yet answered, and
 * only the accepted answer is shown as given.
 */
export async function promptText(
  ctx: Context,
  p: PromptBase & { default?: string; validate?: (v: string) => true | string | Promise<true | string> },
): Promise<string> {
  if (!ctx.canPrompt) cannotPrompt(ctx, p);
  const { input } = await ctx.services.prompts();
  return ctx.whileAsking(() =>
    input({ message: p.message, ...(p.default !== undefined ? { default: p.default } : {}), ...(p.validate ? { validate: p.validate } : {}) }, context(ctx)),
  );
}

/** A hidden answer (tokens): never echoed. */
export async function promptSecret(ctx: Context, p: PromptBase): Promise<string> {
  if (!ctx.canPrompt) cannotPrompt(ctx, p);
  const { password } = await ctx.services.prompts();
  return ctx.whileAsking(() => password({ message: p.message, mask: false, validate: (v: string) => (v.trim() ? true : 'cannot be empty') }, context(ctx)));
}

/**
 * Yes/no: y, yes, n, no (any case) or Enter for the default; anything else is refused and asked
 * again (yes-no.ts). `--yes` answers yes; without a terminal the answer must come from `--yes`.
 */
export async function promptConfirm(ctx: Context, p: Partial<PromptBase> & { message: string; default?: boolean }): Promise<boolean> {
  if (ctx.globals.yes) return true;
  if (!ctx.canPrompt) cannotPrompt(ctx, { message: p.message, flag: p.flag ?? '--yes' });
  const { confirm } = await ctx.services.prompts();
  return ctx.whileAsking(() => confirm({ message: p.message, default: p.default ?? false }, context(ctx)));
}

/**
 * Asks; a "no" ends the command with exit 0 and a word on stderr (an answer, not a failure: as gh
 * does), nothing having been changed. Ctrl-C at the prompt is still an interruption (130).
 */
export async function confirmOrAbort(ctx: Context, message: string, flag = '--yes'): Promise<void> {
  if (await promptConfirm(ctx, { message, flag })) return;
  if (!ctx.globals.quiet) writeStderr(ctx, 'cancelled: nothing was changed\n');
  throw new AnswerExit(ExitCode.ok, 'cancelled');
}

export async function promptSelect<V extends string>(
  ctx: Context,
  p: PromptBase & { choices: readonly { value: V; name?: string; description?: string }[]; default?: V },
): Promise<V> {
  if (!ctx.canPrompt) cannotPrompt(ctx, p);
  const { select } = await ctx.services.prompts();
  return ctx.whileAsking(() =>
    select<V>({ message: p.message, choices: p.choices.map((c) => ({ ...c })), ...(p.default ? { default: p.default } : {}) }, context(ctx)),
  );
}
