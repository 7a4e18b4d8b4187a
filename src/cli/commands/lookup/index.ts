import { defineGroup } from '../../command.js';
import { countriesCommand } from './countries.js';
import { genresCommand } from './genres.js';
import { languagesCommand } from './languages.js';
import { platformsCommand } from './platforms.js';

export const lookupGroup = defineGroup({
  name: 'lookup',
  summary: 'Reference lists: countries, platforms, genres, languages',
  examples: ['reldist lookup genres', 'reldist lookup countries --json'],
  commands: [countriesCommand, platformsCommand, genresCommand, languagesCommand],
});
