import { defineGroup } from '../../command.js';
import { artistsCommand } from './artists.js';

export const labelGroup = defineGroup({
  name: 'label',
  summary: 'The artists a label manages',
  examples: ['reldist label artists list', 'reldist label artists remove 3 --yes'],
  commands: [artistsCommand],
});
