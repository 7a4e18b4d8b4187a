// The service words its messages for API clients ("see GET /lookup/genres"); a person at the
// CLI is told the command instead. Known references become commands; any other "METHOD /path"
// in parentheses is dropped. Pure and dependency-free: reporting an error loads nothing.

const COMMANDS: [RegExp, string][] = [
  [/\bGET \/lookup\/(genres|languages|countries|platforms)\b/g, '`reldist lookup $1`'],
  [/\bGET \/preferences\/label\b/g, '`reldist prefs label`'],
  [/\bPATCH …\/delivery\b/g, '`reldist release edit <id> --release-date YYYY-MM-DD`'],
  [/Upload audio and add tracks with PUT \/releases\/\{id\}\/tracks\./g, 'Upload audio and add it as tracks with `reldist track upload <release> <files...>`.'],
  [/\(POST …\/tracks\/upload-url\) and attach its key/g, 'with `reldist track upload <release> <files...>`'],
  [/ask for (a new one|one) with POST …\/tracks\/upload-url/g, 'upload the file again with `reldist track upload <release> <files...>`'],
];

const HTTP_REFERENCE = /\b(GET|POST|PUT|PATCH|DELETE) (?:\/|…\/)[^\s)]*/;
const HTTP_ASIDE = new RegExp(` ?\\(${HTTP_REFERENCE.source}\\)`, 'g');
const HTTP_SEE = new RegExp(`;? ?see ${HTTP_REFERENCE.source}`, 'g');
/** Messages already put in the CLI's terms: a batch repeats the same few thousands of times. */
const said = new Map<string, string>();

/** A message or hint of the service, in the CLI's terms. */
export function inCliTerms(text: string): string {
  let out = said.get(text);
  if (out !== undefined) return out;
  out = text;
  for (const [pattern, words] of COMMANDS) out = out.replace(pattern, words);
  // Anything left that points at the HTTP API: drop it when it is an aside, keep the sentence.
  out = out.replace(HTTP_ASIDE, '');
  out = out.replace(HTTP_SEE, '');
  if (said.size < 1000) said.set(text, out);
  return out;
}
