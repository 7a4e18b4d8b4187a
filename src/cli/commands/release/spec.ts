// The `release` group as --help and shell completion see it: its verbs, their arguments,
// help and flags. Declarations only (cheap to load); each verb's code is in <verb>.ts (see ../runners.ts).
import { releaseStatuses, releaseTypes } from '../../../contract/wire-values.js';
import { choice, hiddenAlias, collect, defineCommand, defineGroup, option, RELEASE_REF_HELP, type OptsOf } from '../../command.js';
import { DELIVERY_FLAGS, METADATA_FLAGS, VIDEO_FLAGS } from './flags.js';
import { UPLOAD_FLAGS } from '../../shared/upload-flags.js';

export type CreateOpts = OptsOf<typeof createCommand>;

export const createCommand = defineCommand({
  name: 'create',
  summary: 'Create a release: from flags, from a release file, or with a wizard',
  description: `Three ways in:
  - flags: --type, --title, --artist and --label are required, the rest optional;
  - --file release.yaml (or .json; "-" for standard input): the release with its tracks and their audio, delivery and video settings (format: docs/release-file.md). Flags win over the file. The file is checked first, every problem named as file:line: field.path: expected …; then the draft is created, every track uploaded and attached, delivery and video applied. If any step fails, the draft is deleted again and the error says what happened;
  - nothing given, on a terminal: a wizard asks for each field (each answer checked as it is given, the catalog number against your releases), shows a summary and creates the release only when you confirm. Ctrl-C at any step leaves nothing created.

With --no-input (or not on a terminal) nothing is ever asked: a missing field is a usage error naming its flag. --artwork FILE (or \`artwork: cover.jpg\` in the file) is the cover: read from its bytes first, refused before anything is created if the service would refuse it, uploaded and set once the draft exists. --submit submits the release once it is complete; --check runs every check the submit would run (offline: the file, the flags, the audio, the titles, codes and dates) and prints the plan, sending nothing; it exits 3 with every problem when the submit would be blocked. --save FILE writes the release as a release file first (the wizard's answers, kept whatever happens next); whatever fails after the wizard's questions (the create, an upload, the network, Ctrl-C), the wizard offers to save the answers as a release file under a name not yet taken (after Ctrl-C it writes it without asking) and names it with the command that goes on from it; a draft already made is kept.

--json prints the release as the service sends it (with --submit: {release, submit}).`,
  examples: [
    'reldist release create',
    'reldist release create --type single --title "Northern Sky" --artist "Nina Vale" --label "Northern Lights Records" --genre Pop --language en',
    'reldist release create --file examples/first-release/release.yaml --submit',
    'reldist release create --file release.yaml --check',
    'reldist release create --type single --title "Northern Sky" --artist "Nina Vale" --label "Northern Lights Records" --artwork cover.jpg',
  ],
  options: [
    option('-f, --file <file>', 'a release file (JSON or YAML) with tracks and settings'),
    option('--submit', 'submit the release for review once it is created'),
    option('--check', 'run every check the submit would run and print the plan; create nothing'),
    option('--save <file>', "also write the release (the wizard's answers) as a release file"),
    option('--artwork <file>', 'the cover image (JPEG or PNG, square, at least 3000 px, RGB): checked here, uploaded once the release exists'),
    ...UPLOAD_FLAGS,
    ...METADATA_FLAGS,
    ...DELIVERY_FLAGS,
    ...VIDEO_FLAGS,
  ],
});

export const deleteCommand = defineCommand({
  name: 'delete',
  safeToRerun: true,
  args: '<release>',
  summary: 'Delete a draft or rejected release and its tracks',
  description: `${RELEASE_REF_HELP} Asks for confirmation on a terminal. Without a terminal (scripts, CI) --yes is required. Releases that were delivered cannot be deleted; take them down instead.`,
  examples: ['reldist release delete 42', 'reldist release delete 42 --yes --json'],
  aliases: ['rm'],
});

export type EditOpts = OptsOf<typeof editCommand>;

export const editCommand = defineCommand({
  name: 'edit',
  safeToRerun: true,
  args: '<release>',
  summary: "Change a release's metadata, delivery or video settings",
  description: `${RELEASE_REF_HELP} Each part can come from a JSON or YAML file (--metadata, --delivery, --video: the bodies of PATCH …/metadata, …/delivery, …/video; "-" reads standard input) and from flags, which win over the file. Only what you give changes. Everything is checked before anything is sent (the submit's own rules: a malformed UPC is refused, exit 2; what the submit would refuse, "feat." in a title, is a warning); if a later part is refused, the parts already saved are put back as they were.

Credits by role: --artist (primary), --featuring, --with and --remixer (repeatable), or --contributor ROLE=NAME, each set that role's names and keep the other roles; an empty name ("" or ROLE=) removes the role. The tracks have artists of their own: the tracks that credited what the release did change too with --tracks-too and keep theirs with --no-tracks-too; on a terminal you are asked, otherwise a note says which tracks kept the old artists.

The cover: --artwork FILE reads the image from its bytes first (as \`reldist artwork check\`): one the service would refuse (not an image, cut short, animated, too large) stops the command before anything is sent; what the submit would block (CMYK, under 3000 px, not square) is a warning. Then, after the other changes, it is uploaded and set as the release's cover.`,
  examples: [
    'reldist release edit 42 --title "Northern Sky" --genre Folk',
    'reldist release edit 42 --artwork cover.jpg',
    'reldist release edit 42 --release-date 2027-01-15 --territories exclude:KP --price-tier front',
    'reldist release edit 42 --metadata meta.yaml --video-enabled yes --content-id monetize',
    'reldist release edit NLR-0042 --artist "Lena Voss" --tracks-too',
  ],
  options: [
    option('--metadata <file>', 'metadata fields from a JSON/YAML file'),
    option('--artwork <file>', 'the cover image (JPEG or PNG, square, at least 3000 px, RGB): checked here, then uploaded and set'),
    option('--contributor <role=name>', 'an artist credit by role: primary, featuring, with, remixer (repeatable; role= removes the role)', collect),
    option('--tracks-too', "with a change of artists: the tracks that credited the release's old artists change too"),
    option('--no-tracks-too', 'with a change of artists: the tracks keep their own artists'),
    option('--delivery <file>', 'delivery settings from a JSON/YAML file'),
    option('--video <file>', 'video settings from a JSON/YAML file'),
    ...METADATA_FLAGS,
    ...DELIVERY_FLAGS,
    ...VIDEO_FLAGS,
  ],
});

export const getCommand = defineCommand({
  name: 'get',
  args: '<release>',
  summary: 'Show one release, with its tracks',
  description: `${RELEASE_REF_HELP} --json prints the release as the service sends it (snake_case, with its tracks). On a terminal the tracks follow as a table; piped, the output is label<TAB>value lines.`,
  examples: ['reldist release get 42', 'reldist release get NLR-0042', 'reldist release get 42 --json | jq .delivery'],
  aliases: ['view'],
});

export type ListOpts = OptsOf<typeof listCommand>;

// The contract's own lists (plain data): a flag, its check and its completion take them from there.
export const STATUSES = releaseStatuses;
export const TYPES = releaseTypes;

export const listCommand = defineCommand({
  name: 'list',
  summary: 'List your releases, newest first',
  description: `One page at a time (--page, --per-page up to 100; stderr says how many releases the page left out), or every page with --all. --json prints one array of releases (with --all too); a table on a terminal; tab-separated rows when piped: id, status, type, title, artists, tracks, UPC, updated (ISO 8601).`,
  examples: [
    'reldist release list',
    'reldist release list --status draft --search "northern"',
    'reldist release list --all --json | jq -r ".[] | select(.status == \\"rejected\\") | .id"',
  ],
  aliases: ['ls'],
  options: [
    choice('--status <status>', `only releases in this state: ${STATUSES.join(', ')}`, STATUSES),
    choice('--type <type>', `only this type: ${TYPES.join(', ')}`, TYPES),
    option('--search <text>', 'only releases whose title, artist, UPC or catalog number contains this'),
    option('--catalog-number <number>', 'only the release with exactly this catalog number (case and spaces ignored)'),
    option('--page <n>', 'the page to show (from 1)'),
    option('--per-page <n>', 'releases per page (1-100, default 20)'),
    option('--all', 'walk every page and print them all'),
  ],
});

export type SubmitOpts = OptsOf<typeof submitCommand>;

export const submitCommand = defineCommand({
  name: 'submit',
  safeToRerun: true,
  args: '<releases...>',
  summary: 'Submit releases for review, or check them with --dry-run',
  description: `Each release is named by its id or its catalog number; id:42 or cat:42 settles a catalog number that looks like an id. The service runs every check at once. Every blocking problem and warning is shown, one per line, grouped by field path. Warnings do not block. Many releases go in batches of 500, one request each, answered in the order given; running it again is safe (releases already in review say so).

Exit status: 0 when every release went through (or, with --dry-run, would; a release already in review counts, with the outcome already_in_review), 3 when any is blocked, another code when a release could not be reached; with several ids, the worst. --json prints one object per release ({release_id, outcome, status, message, problems, error}): the object for one id, an array for several. Piped, each problem is a row: release id, outcome, path, severity, code, message, hint (a release without problems: one row).`,
  examples: ['reldist release submit 42', 'reldist release submit 42 --dry-run', 'reldist release submit 42 43 44 --json > results.json'],
  options: [
    option('--dry-run', 'run every check and report, without submitting'),
    option('-m, --message <text>', "notes for the reviewer (the reviewer's text is --message everywhere)"),
    hiddenAlias('--notes <text>', '--message'),
  ],
});

export const withdrawCommand = defineCommand({
  name: 'withdraw',
  safeToRerun: true,
  args: '<release>',
  summary: 'Take a release in review back to a draft, to fix it before it is reviewed',
  description: `${RELEASE_REF_HELP} in review → draft, on the service: the release can be edited again (its UPC and ISRCs, if assigned at submit, stay), then submitted again with \`release submit\`. A release already a draft is said so (exit 0); one approved or further on cannot be withdrawn (exit 9, naming its state). --json prints the release afterwards.`,
  examples: ['reldist release withdraw 42', 'reldist release withdraw NLR-0042 --json'],
});

export type ApplyOpts = OptsOf<typeof applyCommand>;

export const applyCommand = defineCommand({
  name: 'apply',
  safeToRerun: true,
  args: '<paths...>',
  summary: 'Make the service match release files; safe to re-run',
  description: `Each release file (folders are searched for *.yaml, *.yml and *.json) must carry a catalog_number: it is the release's key. Apply finds the release with that number, creates it when there is none, and otherwise changes only what differs (audio is compared by sha256: only changed audio is uploaded). A draft or rejected release is edited; one in review or further on is skipped with the reason. Nothing is ever deleted. Every write carries an idempotency key, so a run that was killed or failed is simply run again: it resumes, and never makes a second release.

--plan shows what would change (+ create, ~ update, = unchanged, ! skip) and exits 8 when anything would (no error line: it is the answer). --submit submits each release once it matches its file; with --plan, the submit checks of \`release create --check\` run offline, and a release they would block is marked ! with its problems (exit 3, over 8). Every problem in the files (a missing or shared catalog number, a bad field) stops the run before anything is sent.

Output: one line per release as it finishes: JSON with --json ({file, catalog_number, release_id, action, outcome, status, problems, error, sandbox}), tab-separated when piped, a progress line and a summary table on a terminal; a blocked release is followed by its problems on stderr. --report FILE appends the same JSON lines to FILE as releases finish. Stopped by --timeout, Ctrl-C or SIGTERM, it first writes a line for every release it did not finish (outcome interrupted: what exists, and that a re-run resumes). --only NLR-0001,NLR-00* applies only the releases of the files with those catalog numbers (compared trimmed and in any case; * any characters, ? one); an entry that matches no file is a usage error. --only-failed REPORT applies every release of the files that the report does not show as done: failed, blocked, interrupted, or with no line at all; it says on stderr what it chose.

Drift: after each run, apply records what the service held of each release it brought to its file (.reldist-state.json in the folder when one folder is applied, or --state FILE; keep it where the CI job keeps its files). --plan then says per release what changed since: the file, the service (someone edited the release elsewhere: apply would put the file's values back), both, or nothing ([…] after the line; "drift" in --json: none, file, service, both, untracked). --expect-no-changes plans and exits 8 on any change to make or any drift, for a scheduled check. A release whose apply failed is not recorded.

Exit status: 0 when every release matches its file (and, with --submit, is submitted); 1 when a release failed; 3 when a submit was blocked; 7 on --timeout, 130 on Ctrl-C or SIGTERM (when several apply, the first of 7/130, 1, 3 wins); 2 for a usage or file problem. With --plan: 3 when a submit would be blocked, else 8 when anything would change; with --expect-no-changes also 8 on drift.`,
  examples: [
    'reldist release apply releases/ --plan',
    'reldist release apply releases/ --submit --report apply-report.jsonl',
    'reldist release apply releases/ --shard 2/4 --parallel 8 --json',
    'reldist release apply releases/ --only-failed apply-report.jsonl',
    'reldist release apply releases/ --expect-no-changes',
    "reldist release apply releases/ --only 'NLR-0001,NLR-01*' --plan",
  ],
  options: [
    option('--submit', 'submit each release for review once it matches its file'),
    option('--plan', 'show what would change and send nothing (exit 8 when anything would)'),
    option('--report <file>', 'append one JSON line per finished release to this file'),
    option('--state <file>', 'where apply keeps what it last saw of each release (default: .reldist-state.json in the one folder applied)'),
    option('--expect-no-changes', 'plan only, and exit 8 on any change to make or any drift since the last apply (a scheduled CI check)'),
    option('--only <catalog-numbers>', 'only the releases with these catalog numbers, comma-separated; * and ? match any characters and one (NLR-00*)'),
    option('--shard <i/n>', "apply only this job's share of the releases, e.g. 2/4"),
    option('--parallel <n>', 'releases applied at once (1-32, default 4)'),
    option('--only-failed <report>', 'apply only the releases this report does not show as done (failed, blocked, interrupted, or no line)'),
    ...UPLOAD_FLAGS,
  ],
});

export type ExportOpts = OptsOf<typeof exportCommand>;

export const exportCommand = defineCommand({
  name: 'export',
  safeToRerun: true,
  args: '[releases...]',
  summary: 'Write releases of the service as release files, for `release apply`',
  description: `Each release named (by id or catalog number), or every release with --all (--status narrows it), is written to --dir as one release file named after its catalog number (NLR-0042.yaml; --format json for .json): its metadata, tracks, delivery and video settings and cover, in the format of docs/release-file.md. \`reldist release apply DIR --plan\` right after shows every exported release unchanged.

Audio stays on the service: each track's audio is referred to by its sha256 (file: sha256:…), which apply holds against the service's track instead of uploading (apply refuses such a track if the service's audio differs: there is nothing to upload). The service has no audio download, so --with-audio is refused. The cover is the release's artwork, as its address.

A release without a catalog number, with a track without audio, or sharing its catalog number with another is not written: each is listed with the reason. A file already there is never replaced without --force: without it, nothing is written and the files are named.

Output: one line per release (JSON with --json: {release_id, catalog_number, file, outcome: written or skipped, reason}; tab-separated when piped: id, catalog number, outcome, file, reason); on a terminal a summary on stderr. Exit status: 0 when every release was written; 1 when any was skipped (the others are written); 2 for a usage problem (files in the way, no release named).`,
  examples: [
    'reldist release export --all --dir catalog/',
    'reldist release export NLR-0042 NLR-0043 --dir catalog/',
    'reldist release export --all --status draft --dir drafts/ --force',
  ],
  options: [
    option('--dir <folder>', 'the folder to write the release files to (made if missing)'),
    option('--all', 'every release of the account'),
    choice('--status <status>', `with --all: only releases in this state: ${STATUSES.join(', ')}`, STATUSES),
    choice('--format <format>', 'yaml (the default) or json', ['yaml', 'json']),
    option('--force', 'replace release files already in the folder'),
    option('--with-audio', 'also download the audio (not offered by the service: refused)'),
  ],
});

export type ImportOpts = OptsOf<typeof importCommand>;

export const importCommand = defineCommand({
  name: 'import',
  args: '<spreadsheet>',
  summary: "Turn a distributor's spreadsheet into release files, for `release apply`",
  description: `Reads a bulk template, one row per track with the release's columns repeated (or given on a release's first row only), and writes one release file per release to --dir, named after its catalog number (NLR-0042.yaml), in the format of docs/release-file.md. \`reldist release apply DIR --plan\` takes every file written.

The header row is found wherever it is (a title, instructions or merged group headers above it), columns in any order, headers read as a person reads them: case, spaces and punctuation aside, with the common synonyms (Release/Album title, UPC/EAN/Barcode, Catalog/Catalogue number, Track/Song title, Track number/no., Participants/Contributors, P line/℗ line, C line/© line…). --template names the template (believe, sonosuite, umw, generic); auto, the default, tells it by its headers. Rows are grouped into releases by catalog number, else UPC (which then stands as the catalog number); tracks are ordered by disc and track number, then row order. Participants are role:Name;role:Name (primary, featuring, with, remixer, composer, lyricist, producer…); a template's contributor sheet (Believe's) credits names on track positions. Dates are read in the template's order (Believe MM/DD/YYYY, Sonosuite and UMW DD/MM/YYYY; generic: ISO, or whichever order the values show, else refused as ambiguous), and as a workbook's day numbers.

Codes are checked as \`reldist validate\` checks them, with its names for spreadsheet damage: a repair that is certain (a lost leading zero) is used and reported as a warning; one that is not (scientific notation: digits lost) refuses the row. Each row that cannot become part of a release is reported with its line (and sheet), the column and the reason; a release with any such row is not written unless --partial (then it is written without those rows). A column that maps to nothing in a release file is named in the summary.

Audio: an address (https, or http on this machine) is written as it is, and apply downloads it; a file name is looked for under --audio-dir (by its path there, else its name) and written relative to the release file; otherwise the track is written without audio, and apply creates it without (its submit waits for the audio). A file already in --dir is never replaced without --force: without it nothing is written.

Output: problems and a summary on stderr; one line per release on stdout when piped (catalog number, outcome written or not_written, file, tracks); with --json, JSON lines on stdout: each problem ({type: "problem", sheet, line, column, code, message, severity}), each release ({type: "release", catalog_number, file, outcome, lines, tracks, audio}) and a summary ({type: "summary", …}). Exit status: 0 when every row is in a file written; 1 when any row was refused (the releases without problems, or all with --partial, are written); 2 for a usage problem (no header, files in the way).`,
  examples: [
    'reldist release import catalog.csv --dir catalog/',
    'reldist release import believe-template.xlsx --template believe --dir catalog/ --audio-dir masters/',
    'reldist release import sonosuite.csv --dir catalog/ --partial --json',
  ],
  options: [
    option('--dir <folder>', 'the folder to write the release files to (made if missing)'),
    option('--template <name>', 'auto (the default: told by the headers), generic, believe, sonosuite or umw'),
    option('--audio-dir <folder>', 'where the audio files the sheet names are looked for'),
    option('--partial', 'write the releases with refused rows too, without those rows'),
    option('--force', 'replace release files already in the folder'),
  ],
});

export type WatchOpts = OptsOf<typeof watchCommand>;

export const WATCH_TARGETS = ['reviewed', 'approved', 'live'] as const;

export const watchCommand = defineCommand({
  name: 'watch',
  args: '<releases...>',
  summary: 'Wait until releases are reviewed, approved or live',
  description: `Each release is named by its id or its catalog number; id:42 or cat:42 settles a catalog number that looks like an id. Reads each release once, then waits on the service's event log (GET /events, long polls of up to 25 s) and reads a release again only when an event of it comes, so a review is seen as it happens. Against a service without the log, polls each release every --interval (default 5s, at least 1s, with a little jitter) with conditional requests, so an unchanged release costs the service a 304 and nothing more. When the service asks to slow down (429), waits as long as it says.

--for reviewed (the default): approved or rejected; --for approved: approved, delivered or live; --for live: live. Watching goes on until every release has settled, so every outcome is shown.

Exit status: 0 when every release reached the state; 3 when any was rejected (the reviewer's reason codes and notes are printed); 1 when one can no longer get there (taken down, or back to a draft, e.g. withdrawn); 7 when --timeout passed first; 130 on Ctrl-C. Durations: 500ms, 10s, 5m, 1h. --timeout (the global flag that bounds any command) defaults here to none on a terminal and to 30m otherwise (CI), so a pipeline never hangs; --timeout 0 waits forever.

On a terminal, a live table on stderr (id, catalog number, title, state, since). --json prints one JSON line per change of state on stdout ({release_id, catalog_number, status, previous, at, review}; the first line of each release has previous null); piped without --json, one tab-separated line per change: id, catalog number, status, previous, at, review codes, review notes.`,
  examples: ['reldist release watch 42', 'reldist release watch NLR-0042 --for live --timeout 1h', 'reldist release watch 42 43 --json --interval 30s'],
  options: [
    choice('--for <state>', `the state to wait for: ${WATCH_TARGETS.join(', ')} (default reviewed)`, WATCH_TARGETS),
    option('--interval <duration>', 'without an event log: time between checks of a release (default 5s, at least 1s)'),
  ],
});

export const historyCommand = defineCommand({
  name: 'history',
  args: '<release>',
  summary: 'What happened to a release: who changed what, and when',
  description: `The release is an id (all digits) or a catalog number (a deleted release: by its id). Every event of the release in order (docs/api.md, "Events"): created, fields changed, tracks changed, files uploaded, submitted, approved, rejected (with the reviewer's codes and notes), withdrawn, delivered, live, taken down, deleted; who made each change and when.

On a terminal: a line per event (time, what, who), and under it each changed field, old → new. Piped: tab-separated lines of time, type, who, field, old value, new value: one per changed field (an event that changed no field has its summary in place of the field). --json prints the events as the service sends them, one JSON array.

Changes made before the service kept events (an older data directory) are not in it.`,
  examples: ['reldist release history NLR-0042', 'reldist release history 42 --json'],
});

export const releaseGroup = defineGroup({
  name: 'release',
  summary: 'Create, list, edit, delete and submit releases',
  examples: [
    'reldist release create --file examples/first-release/release.yaml',
    'reldist release list --status draft',
    'reldist release submit 42 --dry-run',
    'reldist release apply catalog/ --submit',
    'reldist release watch NLR-0001 --for approved',
  ],
  commands: [
    listCommand,
    getCommand,
    createCommand,
    editCommand,
    deleteCommand,
    submitCommand,
    withdrawCommand,
    applyCommand,
    exportCommand,
    importCommand,
    watchCommand,
    historyCommand,
  ],
});
