// The lines of a --json stream (one JSON value a line, as `release apply`/`import` print them), parsed.
export function jsonLines<T = any>(text: string): T[] {
  return text
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as T);
}
