// The `track` group as --help and shell completion see it: its verbs, their arguments,
// help and flags. Declarations only (cheap to load); each verb's code is in <verb>.ts (see ../runners.ts).
import { explicitValues } from '../../../contract/wire-values.js';
import { choice, collect, defineCommand, defineGroup, option, RELEASE_REF_HELP, type OptsOf, requiredOption } from '../../command.js';
import { UPLOAD_FLAGS } from '../../shared/upload-flags.js';

export const getCommand = defineCommand({
  name: 'get',
  args: '<release> <track>',
  summary: 'Show one track of a release, with its audio file',
  description: `${RELEASE_REF_HELP} <track> is the track's id.`,
  examples: ['reldist track get 42 7', 'reldist track get 42 7 --json | jq .file'],
  aliases: ['view'],
});

export const listCommand = defineCommand({
  name: 'list',
  args: '<release>',
  summary: 'List the tracks of a release',
  description: `${RELEASE_REF_HELP} Piped, one row per track: position, id, title, ISRC, duration, file name, file state. --json prints the service's array of tracks.`,
  examples: ['reldist track list 42', 'reldist track list NLR-0042', 'reldist track list 42 --json | jq -r ".[].isrc"'],
  aliases: ['ls'],
});

export const replaceCommand = defineCommand({
  name: 'replace',
  safeToRerun: true,
  args: '<release> <track> <file>',
  summary: 'Replace the audio file of one track',
  description: `${RELEASE_REF_HELP} <track> is the track's id. Uploads the file (streamed, with size and sha256, progress on a terminal) and swaps it in; the track keeps its title, ISRC and everything else. Audio the service refuses is reported with its reason and the track keeps its old file. --json prints the track afterwards.`,
  examples: ['reldist track replace 42 7 northern-sky-remaster.wav'],
  options: [...UPLOAD_FLAGS],
});

export type SetOpts = OptsOf<typeof setCommand>;

export const setCommand = defineCommand({
  name: 'set',
  safeToRerun: true,
  args: '<release>',
  summary: 'Replace the whole track list of a release from a file',
  description: `${RELEASE_REF_HELP} The file (JSON or YAML; "-" for standard input) is the body of PUT …/tracks: an object {"tracks": [...]} or a plain array. Each entry keeps an existing track ("id"), attaches an uploaded file ("file_key"), or both. A list that leaves out existing tracks is refused, naming them, unless --replace-all is given (then they are removed). The list is written only if nobody changed the tracks meanwhile (it is checked again if they did). Checked against the contract first, every problem named as file:line: field.path: expected …. --json prints the new list.`,
  examples: [
    'reldist track set 42 --file tracks.json',
    'reldist track list 42 --json | jq "map({id, title, isrc})" | reldist track set 42 --file -',
    'reldist track set 42 --file final-order.yaml --replace-all',
  ],
  options: [requiredOption('-f, --file <file>', 'the track list, JSON or YAML'), option('--replace-all', 'remove the existing tracks the list leaves out')],
});

export type UploadOpts = OptsOf<typeof uploadCommand>;

export const uploadCommand = defineCommand({
  name: 'upload',
  args: '<release> <files...>',
  summary: 'Upload audio files and add them to a release as new tracks',
  description: `${RELEASE_REF_HELP} First every file must exist and pass the service's audio rules, checked here (see track check): WAV (PCM), FLAC or AIFF, stereo, 16 or 24 bit, 44.1 kHz or more, at least 30 s; otherwise nothing is uploaded. Then, for each file: asks the service for an upload address, streams the file there with its size and sha256 (a progress bar on stderr on a terminal), and the service checks the audio again. A file above one part (8 MiB, --part-size) goes up in parts over several connections (--connections), each part checked; a run killed or failed continues where it stopped when run again (a checkpoint in the config folder). Then the files are added after the existing tracks (which are kept), titled from their tags, else from their file names. If the service refuses any file, its reason is shown and no track is added. Audio already on the release (the same sha256), or given twice, is asked about at a terminal and otherwise refused (exit 2), naming the track it repeats; --allow-duplicate adds it anyway (the submit still refuses the same audio on two tracks). --json prints the release's tracks afterwards.`,
  examples: ['reldist track upload 42 01-northern-sky.wav 02-evening.flac', 'reldist track upload 42 masters/*.flac --json'],
  options: [option('--allow-duplicate', 'add audio the release already has (same sha256) without asking'), ...UPLOAD_FLAGS],
});

export type EditOpts = OptsOf<typeof editCommand>;

export const editCommand = defineCommand({
  name: 'edit',
  safeToRerun: true,
  args: '<release> <track>',
  summary: "Change one track's title, version, ISRC and other fields",
  description: `${RELEASE_REF_HELP} <track> is its position on the release (3, or 2-3 for disc 2), as \`track list\` shows it, or its id (id:17 when a number could be both). Only the fields given change; the other tracks and the track's file stay as they are. An empty value ("") clears --track-version, --isrc, --audio-language and --preview-start. Credits by role: each role flag (repeatable) sets that role's names and keeps the other roles: --artist (primary), --featuring, --with, --remixer for the track's artists; --composer, --lyricist, --producer, --arranger, --performer, --mixer, --mastering-engineer, --conductor, --publisher for its contributors; --contributor ROLE=NAME for any of them. An empty name (--composer "" or --contributor composer=) removes the role. Values are checked with the submit's own rules first: a malformed ISRC, or one already on another track of the release, is refused (exit 2, nothing changed); what the submit would refuse ("feat." in a title) is a warning. The change is written only if nobody changed the tracks meanwhile (it is redone on the fresh list if they did). --json prints the track afterwards.`,
  examples: [
    'reldist track edit 42 3 --title "Evening Tide" --isrc GBNLR2600003',
    'reldist track edit 42 id:17 --explicit clean --preview-start 45',
    'reldist track edit 42 2-1 --track-version "Live" --audio-language instrumental',
    'reldist track edit NLR-0042 1 --composer "Ada Lind" --composer "Tom Ash" --lyricist "Ada Lind"',
    'reldist track edit 42 1 --featuring Kai --contributor mastering_engineer="Jo Park" --producer ""',
  ],
  options: [
    option('--title <title>', 'the title, without version words'),
    // Not --version: that one prints reldist's own version.
    option('--track-version <text>', 'the version: "Live", "Radio Edit"… ("" clears it)'),
    option('--isrc <code>', 'the ISRC ("" to have one assigned at submit)'),
    choice('--explicit <value>', 'explicit, not_explicit or clean', explicitValues),
    option('--audio-language <code>', 'ISO 639-1 code (en, fr…) or instrumental ("" clears it)'),
    option('--preview-start <seconds>', 'where the preview starts, in seconds ("" clears it)'),
    option('--artist <name>', "a primary artist (repeat for several); replaces the track's primary artists", collect),
    option('--featuring <name>', 'a featured artist (repeatable; "" removes them)', collect),
    option('--with <name>', 'an artist credited "with" (repeatable; "" removes them)', collect),
    option('--remixer <name>', 'a remixer (repeatable; "" removes them)', collect),
    option('--composer <name>', 'a composer (repeatable; "" removes them)', collect),
    option('--lyricist <name>', 'a lyricist (repeatable; "" removes them)', collect),
    option('--producer <name>', 'a producer (repeatable; "" removes them)', collect),
    option('--arranger <name>', 'an arranger (repeatable; "" removes them)', collect),
    option('--performer <name>', 'a performer (repeatable; "" removes them)', collect),
    option('--mixer <name>', 'a mixing engineer (repeatable; "" removes them)', collect),
    option('--mastering-engineer <name>', 'a mastering engineer (repeatable; "" removes them)', collect),
    option('--conductor <name>', 'a conductor (repeatable; "" removes them)', collect),
    option('--publisher <name>', 'a publisher (repeatable; "" removes them)', collect),
    option('--contributor <role=name>', 'any credit by role, e.g. composer="Ada Lind" (repeatable; role= removes the role)', collect),
  ],
});

export const checkCommand = defineCommand({
  name: 'check',
  args: '<files...>',
  summary: "Check audio files against the service's rules, offline",
  description: `Runs the service's own audio rules on each file, without the service or the network: format (WAV as PCM, FLAC or AIFF), stereo, 16 or 24 bit, 44.1, 48, 88.2, 96 or 192 kHz, at least 30 s, at most 2 GiB. Prints for each file its format in words, channels, sample rate, bit depth, duration and size, then every problem. Then the checks distributors run before delivery (WAV, AIFF and FLAC): integrated loudness (LUFS) and true peak (dBTP), with a warning for silence over 2 s at the start or end, clipping, a true peak above -1 dBTP, loudness above -9 or below -24 LUFS, and lossy audio in a lossless container (an MP3 or AAC encoder's low-pass); warnings never change the exit code. Exit 3 when the service would refuse any file, 2 when a file does not exist. --json prints an array, one object per file.`,
  examples: ['reldist track check 01-northern-sky.wav', 'reldist track check masters/*.wav --json | jq ".[] | select(.accepted | not) | .file"'],
});

export const trackGroup = defineGroup({
  name: 'track',
  summary: 'List, upload, replace and arrange the tracks of a release',
  examples: ['reldist track upload 42 01-northern-sky.wav', 'reldist track list 42'],
  commands: [listCommand, getCommand, checkCommand, uploadCommand, replaceCommand, editCommand, setCommand],
});
