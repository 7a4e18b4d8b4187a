// The `lookup` group as --help and shell completion see it: its verbs, their arguments,
// help and flags. Declarations only (cheap to load); each verb's code is in <verb>.ts (see ../runners.ts).
import { defineCommand, defineGroup } from '../../command.js';

export const countriesCommand = defineCommand({
  name: 'countries',
  summary: 'List the countries a release can be delivered to (ISO 3166-1 codes)',
  description: 'Codes for --territories include:DE,FR and for the territories of a release file.',
  examples: ['reldist lookup countries', 'reldist lookup countries | grep -i germany', 'reldist lookup countries --json'],
});

export const genresCommand = defineCommand({
  name: 'genres',
  summary: 'List the genres a release can have',
  description: 'Values for --genre and --subgenre, and for genre in a release file.',
  examples: ['reldist lookup genres', 'reldist lookup genres --json'],
});

export const languagesCommand = defineCommand({
  name: 'languages',
  summary: 'List the languages of metadata and audio (ISO 639-1 codes)',
  description: 'Codes for --language and for audio_language of a track ("instrumental" is also accepted there).',
  examples: ['reldist lookup languages', 'reldist lookup languages --json | jq -r ".[].code"'],
});

export const platformsCommand = defineCommand({
  name: 'platforms',
  summary: 'List the stores a release can go to, and the platforms artist profiles live on',
  description: `Store ids are the values for --platforms of a release; artist platforms are the values of --platform for \`artist search\` and \`artist resolve\`. --json prints the service's object {stores, artist_platforms}.`,
  examples: ['reldist lookup platforms', 'reldist lookup platforms --json | jq -r ".stores[].id"'],
});

export const lookupGroup = defineGroup({
  name: 'lookup',
  summary: 'Reference lists: countries, platforms, genres, languages',
  examples: ['reldist lookup genres', 'reldist lookup countries --json'],
  commands: [countriesCommand, platformsCommand, genresCommand, languagesCommand],
});
