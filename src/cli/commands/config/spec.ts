// The `config` group as --help and shell completion see it: its verbs, their arguments,
// help and flags. Declarations only (cheap to load); each verb's code is in <verb>.ts (see ../runners.ts).
import { defineCommand, defineGroup } from '../../command.js';

export const getCommand = defineCommand({
  name: 'get',
  args: '<key>',
  summary: 'Print the value of a setting',
  examples: ['reldist config get timeout', 'reldist config get base_url --profile ci'],
});

export const listCommand = defineCommand({
  name: 'list',
  summary: 'List the settings with their values',
  examples: ['reldist config list', 'reldist config list --json'],
  aliases: ['ls'],
});

export const setCommand = defineCommand({
  name: 'set',
  args: '<key> <value>',
  summary: 'Change a setting (tokens are not settings: see `reldist auth login`)',
  examples: ['reldist config set timeout 60', 'reldist config set profile ci', 'reldist config set base_url https://api.example.com --profile staging'],
});

export const unsetCommand = defineCommand({
  name: 'unset',
  args: '<key>',
  summary: 'Return a setting to its default',
  examples: ['reldist config unset timeout'],
});

export const configGroup = defineGroup({
  name: 'config',
  summary: 'Read and change settings (not tokens: see `reldist auth`)',
  examples: ['reldist config list', 'reldist config set timeout 60'],
  commands: [getCommand, setCommand, unsetCommand, listCommand],
});
