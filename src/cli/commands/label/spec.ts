// The `label` group as --help and shell completion see it: its verbs, their arguments,
// help and flags. Declarations only (cheap to load); each verb's code is in <verb>.ts (see ../runners.ts).
import { defineCommand, defineGroup } from '../../command.js';

export const listCommand = defineCommand({
  name: 'list',
  summary: 'List the artists you can release as',
  description: 'GET /preferences/artists. Add artists and set their profiles with `reldist prefs label`.',
  examples: ['reldist label artists list', 'reldist label artists list --json'],
});

export const getCommand = defineCommand({
  name: 'get',
  args: '<id>',
  summary: 'Show one artist the label manages, with its platform profiles',
  examples: ['reldist label artists get 3', 'reldist label artists get 3 --json'],
});

export const removeCommand = defineCommand({
  name: 'remove',
  safeToRerun: true,
  args: '<id>',
  summary: 'Stop managing an artist (asks first on a terminal; --yes otherwise)',
  description: 'Releases that credit the artist keep the credit.',
  examples: ['reldist label artists remove 3', 'reldist label artists remove 3 --yes'],
});

export const labelGroup = defineGroup({
  name: 'label',
  summary: 'The artists a label manages',
  examples: ['reldist label artists list', 'reldist label artists remove 3 --yes'],
  commands: [
    defineGroup({
      name: 'artists',
      summary: 'List, show or stop managing the artists of the label',
      examples: ['reldist label artists list', 'reldist label artists get 3', 'reldist label artists remove 3 --yes'],
      commands: [listCommand, getCommand, removeCommand],
    }),
  ],
});
