// Lines for a person at a terminal, wrapped to its width at word boundaries. Pure, for tests.
import { textWidth } from './fit.js';

/** How far a wrapped line's continuation is indented past the line's own indentation. */
const HANG = '  ';
/** A word, or a `command in backticks` taken whole with what touches it: a command is never split across lines. */
const WORDS = /(?:[^\s`]|`[^`]*`|`)+/g;

/**
 * `text` (one or more lines) with every line longer than `width` broken at spaces (never inside
 * `backticks`: a command stays on one line, to be copied); the lines a break makes are indented
 * two spaces past the line's own indentation, so that they read as one message. A word longer
 * than the room (a path, a URL, a command) is never broken: it stays whole on a line of its own.
 * Without a width, the text as it is.
 */
export function wrapText(text: string, width: number | undefined, hang?: string): string {
  if (width === undefined || width <= 0) return text;
  return text
    .split('\n')
    .map((line) => wrapLine(line, width, hang))
    .join('\n');
}

/** `hang`: the continuation lines' indentation, when not the line's own plus two spaces (a record's value column). */
function wrapLine(line: string, width: number, hangGiven?: string): string {
  if (textWidth(line) <= width) return line;
  const indent = /^ */.exec(line)![0];
  const hang = hangGiven ?? indent + HANG;
  const words = gluedFlags(line.slice(indent.length).match(WORDS) ?? []);
  const out: string[] = [];
  let current = indent;
  let empty = true;
  for (const word of words) {
    const candidate = empty ? current + word : `${current} ${word}`;
    if (empty || textWidth(candidate) <= width) {
      current = candidate;
      empty = false;
      continue;
    }
    out.push(current);
    current = hang + word;
  }
  out.push(current);
  return out.join('\n');
}

/** `--page 2` stays together: a flag is not split from its value ("--page" then ending a sentence, "--all,", is left alone). */
function gluedFlags(words: readonly string[]): string[] {
  const out: string[] = [];
  for (const word of words) {
    const last = out.at(-1);
    if (last !== undefined && /^--[a-z][\w-]*$/.test(last) && !word.startsWith('-')) out[out.length - 1] = `${last} ${word}`;
    else out.push(word);
  }
  return out;
}
