// `reldist api` as --help and shell completion see it. Declarations only; the code is in api.ts.
import { collect, defineCommand, option, type OptsOf } from '../../command.js';

export type ApiOpts = OptsOf<typeof apiCommand>;

export const apiCommand = defineCommand({
  name: 'api',
  args: '<method|path> [path]',
  summary: 'Send a raw request to any endpoint and print the response',
  description:
    'Like `gh api`: the path is relative to the base URL; without a method it is a GET, or a POST when fields or --input give a body; fields become the JSON body (or the query string for GET and ' +
    'with --input). -f sends a string; -F sends true/false/null and numbers as JSON and reads @file (or @- for stdin). ' +
    'Keys nest with brackets: -F "tracks[0][position]=1", -f "genres[]=rock". The response body goes to stdout; a ' +
    'non-2xx status also exits with its code (see `reldist help exit-codes`).',
  examples: [
    'reldist api /me',
    'reldist api GET /releases -F perPage=100 --paginate',
    'reldist api POST /releases -f title="Night Drive" -f type=single -F "artists[0][id]=3"',
    'reldist api PATCH /releases/42/metadata --input metadata.json',
    'reldist api GET /releases/42 -i',
  ],
  options: [
    option('-f, --raw-field <key=value>', 'a string field (repeatable)', collect),
    option('-F, --field <key=value>', 'a typed field: true/false/null, numbers, @file (repeatable)', collect),
    option('-H, --header <"Name: value">', 'an extra request header (repeatable)', collect),
    option('--input <file>', 'the request body from a file, or - for stdin'),
    option('--paginate', 'GET every page and print all items as one JSON array'),
    option('-i, --include', 'print the status line and response headers before the body'),
  ],
});
