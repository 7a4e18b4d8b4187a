import { defineGroup } from '../../command.js';
import { getCommand } from './get.js';
import { listCommand } from './list.js';
import { setCommand } from './set.js';
import { unsetCommand } from './unset.js';

export const configGroup = defineGroup({
  name: 'config',
  summary: 'Read and change settings (not tokens: see `reldist auth`)',
  examples: ['reldist config list', 'reldist config set timeout 60'],
  commands: [getCommand, setCommand, unsetCommand, listCommand],
});
