import { defineGroup } from '../../command.js';
import { getCommand } from './get.js';
import { listCommand } from './list.js';
import { replaceCommand } from './replace.js';
import { setCommand } from './set.js';
import { uploadCommand } from './upload.js';

export const trackGroup = defineGroup({
  name: 'track',
  summary: 'List, upload, replace and arrange the tracks of a release',
  examples: ['reldist track upload 42 01-northern-sky.wav', 'reldist track list 42'],
  commands: [listCommand, getCommand, uploadCommand, replaceCommand, setCommand],
});
