// What people type for a command or a flag under another name, so that a usage error can say
// where the thing is (gh's "did you mean"): words at the top level that name a command of a group
// (`reldist login` is `auth login`), and per command the flags other tools or habits call by
// another name (`--comment` is `--message`). Suggestions only: these never run anything.

/** A word at the top level → the command it most likely means. */
export const COMMAND_ALIASES: Readonly<Record<string, string>> = {
  login: 'auth login',
  logout: 'auth logout',
  signin: 'auth login',
  whoami: 'me',
  status: 'auth status',
  create: 'release create',
  new: 'release create',
  list: 'release list',
  ls: 'release list',
  submit: 'release submit',
  withdraw: 'release withdraw',
  apply: 'release apply',
  export: 'release export',
  watch: 'release watch',
  check: 'track check',
  tracks: 'track list',
  releases: 'release list',
  artists: 'label artists list',
  genres: 'lookup genres',
  countries: 'lookup countries',
  languages: 'lookup languages',
  platforms: 'lookup platforms',
  upc: 'validate upc',
  isrc: 'validate isrc',
  cover: 'artwork check',
};

/** The reviewer's text is --message everywhere (--notes is kept, hidden); its other names. */
const REVIEWER_TEXT = { '--comment': '--message', '--note': '--message', '--body': '--message', '--reason-text': '--message' };

/** The release's field flags, the same on create and edit; their other names. */
const RELEASE_FIELDS = {
  '--name': '--title',
  '--artists': '--artist',
  '--catalog': '--catalog-number',
  '--catno': '--catalog-number',
  '--ean': '--upc',
  '--barcode': '--upc',
};

/** Per command path, a flag's other names → the flag it has. */
export const FLAG_SYNONYMS: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  'release submit': { ...REVIEWER_TEXT, '--check': '--dry-run', '--validate': '--dry-run' },
  'sandbox reject': { ...REVIEWER_TEXT, '--code': '--reason', '--codes': '--reason', '--reasons': '--reason' },
  'release create': RELEASE_FIELDS,
  'release edit': RELEASE_FIELDS,
  'release list': { '--state': '--status', '--kind': '--type', '--query': '--search', '--limit': '--per-page' },
  'release delete': { '--force': '--yes' },
  'track edit': { '--name': '--title', '--writer': '--composer', '--songwriter': '--composer', '--feat': '--featuring' },
  'track upload': { '--allow-duplicates': '--allow-duplicate', '--force': '--allow-duplicate' },
};

/** The command a top-level word means, by its alias or the alias nearest a typo of it. */
export function commandAliasFor(word: string, nearest: (word: string, names: string[]) => string | undefined): string | undefined {
  const key = COMMAND_ALIASES[word] !== undefined ? word : nearest(word, Object.keys(COMMAND_ALIASES));
  return key === undefined ? undefined : COMMAND_ALIASES[key];
}
