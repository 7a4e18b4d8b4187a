// Text for --help and usage errors: descriptions reflowed for commander to wrap, and the verb
// nearest a mistyped one.

/**
 * A description's prose as paragraphs, for commander to wrap to the terminal: the source's line
 * breaks inside a paragraph go (kept, they left ragged lines on an 80-column terminal), blank
 * lines, indented lines (a format, an example) and list items stay as written.
 */
export function reflow(text: string): string {
  const out: string[] = [];
  for (const line of text.split('\n')) {
    const prev = out[out.length - 1];
    const joins = prev !== undefined && prev !== '' && line !== '' && !/^\s/.test(prev) && !/^\s/.test(line) && !/^([-*•]|\d+[.)])\s/.test(line);
    if (joins) out[out.length - 1] = `${prev} ${line}`;
    else out.push(line);
  }
  return out.join('\n');
}

/** The name nearest to `word` by edit distance, if within 2 edits (a typo). */
export function closest(word: string, names: string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = 3;
  for (const name of names) {
    // Levenshtein distance, one row at a time.
    let row = Array.from({ length: name.length + 1 }, (_, j) => j);
    for (let i = 1; i <= word.length; i++) {
      const next = [i];
      for (let j = 1; j <= name.length; j++) next[j] = Math.min(row[j]! + 1, next[j - 1]! + 1, row[j - 1]! + (word[i - 1] === name[j - 1] ? 0 : 1));
      row = next;
    }
    if (row[name.length]! < bestDistance) [best, bestDistance] = [name, row[name.length]!];
  }
  return best;
}
