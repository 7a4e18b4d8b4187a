// The `prefs` group as --help and shell completion see it: its verbs, their arguments,
// help and flags. Declarations only (cheap to load); each verb's code is in <verb>.ts (see ../runners.ts).
import { collect, defineCommand, defineGroup, fromService, option, type OptsOf } from '../../command.js';

export type ArtistOpts = OptsOf<typeof artistCommand>;

export const artistCommand = defineCommand({
  name: 'artist',
  summary: "Show or set the artist account's name and platform profiles",
  description: `Without flags, shows the preferences. With --name, --platform or --file, saves them (POST /preferences/artist/submit) and shows the result. Per platform, choose an existing profile id (find it with \`reldist artist search\`) or "new" to have one created: a wrong match puts the release on a stranger's page. --file takes the request body as JSON or YAML: {artist_name, platforms: [{platform, mode, profile_id}]}.`,
  examples: [
    'reldist prefs artist',
    'reldist prefs artist --platform streaming_a=4Z8W4fKeB5YxbusRsdQVPb --platform store_c=new',
    'reldist prefs artist --file artist-prefs.yaml --json',
  ],
  options: [
    option('--name <name>', 'the artist name'),
    option('--platform <platform=id|new>', 'a profile choice (repeatable): streaming_a=<id>, video_b=new…', collect),
    option('-f, --file <file>', 'the preferences as a JSON/YAML file'),
  ],
});

export type LabelOpts = OptsOf<typeof labelCommand>;

export const labelCommand = defineCommand({
  name: 'label',
  summary: "Show or set the label's defaults and the artists it manages",
  description: `Without settings flags, shows the label's settings and a page of its artists (--search, --page, --per-page; --limit is the service's legacy name of --per-page). With settings flags or --file, saves them (POST /preferences/label/submit) and shows the result. --file takes the request body as JSON or YAML: {name, default_p_line_owner, default_c_line_owner, default_genre, default_language, artists: [{id?, name, platforms?}]}. --json prints the service's object.`,
  examples: [
    'reldist prefs label',
    'reldist prefs label --search nina --per-page 5',
    'reldist prefs label --default-genre Electronic --default-language en --add-artist "Kai Moreno"',
    'reldist prefs label --file label.yaml',
  ],
  options: [
    option('--search <text>', 'show only artists whose name contains this'),
    option('--page <n>', 'the page of artists to show'),
    option('--per-page <n>', 'artists per page (1-100)'),
    option('--limit <n>', 'legacy name of --per-page'),
    option('--name <name>', 'set: the label name'),
    option('--default-p-line-owner <owner>', 'set: the default ℗ owner of new releases'),
    option('--default-c-line-owner <owner>', 'set: the default © owner of new releases'),
    fromService('--default-genre <genre>', 'set: the default genre (from `reldist lookup genres`)', 'genre'),
    option('--default-language <code>', 'set: the default metadata language'),
    option('--add-artist <name>', 'set: start managing an artist (repeatable)', collect),
    option('-f, --file <file>', 'set: the settings as a JSON/YAML file'),
  ],
});

export const prefsGroup = defineGroup({
  name: 'prefs',
  summary: 'Artist and label preferences: names, defaults, platform profiles',
  examples: ['reldist prefs label', 'reldist prefs artist --platform store_c=new'],
  commands: [artistCommand, labelCommand],
});
