// The command tree. Each group lives in its own folder; add a group with one line here.
import type { CommandSpec, GroupSpec } from '../command.js';
import { validateGroup } from './validate/index.js';

export const topLevelCommands: CommandSpec<any>[] = [];

export const commandGroups: GroupSpec[] = [validateGroup];
