// A yes/no question that takes only y, yes, n, no (any case) or Enter for the default. inquirer's
// own confirm reads any other text as the default, so "sure" or a stray paste at "Create this
// release? (Y/n)" was a yes; here it is refused with a word and asked again.
import type { Prompter } from './lazy.js';

/** The answer `text` gives, Enter giving `fallback`; undefined for anything else. */
export function yesNoAnswer(text: string, fallback: boolean): boolean | undefined {
  const t = text.trim().toLowerCase();
  if (t === '') return fallback;
  if (t === 'y' || t === 'yes') return true;
  if (t === 'n' || t === 'no') return false;
  return undefined;
}

/** What a refused answer is told. */
export function yesNoRefusal(fallback: boolean): string {
  return `answer y or n (Enter for ${fallback ? 'yes' : 'no'})`;
}

type Input = Prompter['input'];
type ConfirmConfig = { message: string; default?: boolean };

/** inquirer's confirm, drawn the same way ("(Y/n)", then "Yes" or "No"), over a validated input. */
export function strictConfirm(input: Input): (config: ConfirmConfig, context?: Parameters<Input>[1]) => Promise<boolean> {
  return async (config, context) => {
    const fallback = config.default ?? true;
    const answer = await input(
      {
        message: config.message,
        validate: (v: string) => (yesNoAnswer(v, fallback) === undefined ? yesNoRefusal(fallback) : true),
        // While asking: the default's hint until something is typed; once answered: Yes or No only.
        transformer: (v: string, { isFinal }: { isFinal: boolean }) =>
          isFinal ? (yesNoAnswer(v, fallback) ? 'Yes' : 'No') : v === '' ? (fallback ? '(Y/n)' : '(y/N)') : v,
        // A refused answer is cleared: the next one is typed afresh.
        theme: { validationFailureMode: 'clear' },
      },
      context,
    );
    return yesNoAnswer(answer, fallback) ?? fallback;
  };
}
