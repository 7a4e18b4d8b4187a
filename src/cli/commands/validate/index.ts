import { defineGroup } from '../../command.js';
import { isrcCommand } from './isrc.js';
import { upcCommand } from './upc.js';

export const validateGroup = defineGroup({
  name: 'validate',
  summary: 'Check UPC/EAN and ISRC codes, offline and in bulk',
  examples: ['reldist validate upc 036000241457', 'reldist validate isrc --file isrcs.txt --json'],
  commands: [upcCommand, isrcCommand],
});
