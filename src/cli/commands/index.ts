// The command tree. Each group lives in its own folder; add a group with one line here.
import type { CommandSpec, GroupSpec } from '../command.js';
import { validateGroup } from './validate/index.js';
import { authGroup } from './auth/index.js';
import { configGroup } from './config/index.js';
import { apiCommand } from './api/index.js';
import { openapiCommand } from './openapi/index.js';
import { completionCommand } from './completion/index.js';
import { serveCommand } from './serve/index.js';
import { meCommand } from './me.js';
import { lookupGroup } from './lookup/index.js';
import { artistGroup } from './artist/index.js';
import { releaseGroup } from './release/index.js';
import { trackGroup } from './track/index.js';
import { prefsGroup } from './prefs/index.js';
import { labelGroup } from './label/index.js';

export const topLevelCommands: CommandSpec<any>[] = [meCommand, apiCommand, openapiCommand, completionCommand, serveCommand];

export const commandGroups: GroupSpec[] = [validateGroup, authGroup, configGroup];
commandGroups.push(releaseGroup);
commandGroups.push(trackGroup);
commandGroups.push(lookupGroup);
commandGroups.push(artistGroup);
commandGroups.push(prefsGroup);
commandGroups.push(labelGroup);
