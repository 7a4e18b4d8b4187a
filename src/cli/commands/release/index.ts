import { defineGroup } from '../../command.js';
import { createCommand } from './create.js';
import { deleteCommand } from './delete.js';
import { editCommand } from './edit.js';
import { getCommand } from './get.js';
import { listCommand } from './list.js';
import { submitCommand } from './submit.js';

export const releaseGroup = defineGroup({
  name: 'release',
  summary: 'Create, list, edit, delete and submit releases',
  examples: [
    'reldist release create --file examples/first-release/release.yaml',
    'reldist release list --status draft',
    'reldist release submit 42 --dry-run',
  ],
  commands: [listCommand, getCommand, createCommand, editCommand, deleteCommand, submitCommand],
});
