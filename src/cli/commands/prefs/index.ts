import { defineGroup } from '../../command.js';
import { artistCommand } from './artist.js';
import { labelCommand } from './label.js';

export const prefsGroup = defineGroup({
  name: 'prefs',
  summary: 'Artist and label preferences: names, defaults, platform profiles',
  examples: ['reldist prefs label', 'reldist prefs artist --platform store_c=new'],
  commands: [artistCommand, labelCommand],
});
