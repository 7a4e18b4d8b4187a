// The command tree. Each group lives in its own folder, declared in its spec.ts; add a group with
// one line here (and its verbs to runners.ts).
// Groups load lazily (start-up: only the invoked group's declarations are parsed), so the root help
// reads each group's name and summary from this table; test/e2e/startup.test.ts checks the table
// against the groups' own declarations.
import type { CommandSpec, GroupSpec } from '../command.js';
import { apiCommand } from './api/spec.js';
import { openapiCommand } from './openapi/spec.js';
import { completionCommand } from './completion/spec.js';
import { serveCommand } from './serve/spec.js';
import { meCommand } from './me/spec.js';

/** Small and shown with their arguments and flags in the root help, so declared up front. */
export const topLevelCommands: CommandSpec<any>[] = [meCommand, apiCommand, openapiCommand, completionCommand, serveCommand];

export interface GroupEntry {
  name: string;
  summary: string;
  load(): Promise<GroupSpec>;
}

export const commandGroups: GroupEntry[] = [
  { name: 'validate', summary: 'Check UPC/EAN and ISRC codes, offline and in bulk', load: async () => (await import('./validate/spec.js')).validateGroup },
  { name: 'auth', summary: 'Sign in and out, and see which service and token are in use', load: async () => (await import('./auth/spec.js')).authGroup },
  { name: 'config', summary: 'Read and change settings (not tokens: see `reldist auth`)', load: async () => (await import('./config/spec.js')).configGroup },
  { name: 'release', summary: 'Create, list, edit, delete and submit releases', load: async () => (await import('./release/spec.js')).releaseGroup },
  { name: 'track', summary: 'List, upload, replace and arrange the tracks of a release', load: async () => (await import('./track/spec.js')).trackGroup },
  { name: 'artwork', summary: "Check cover images against the stores' rules, offline", load: async () => (await import('./artwork/spec.js')).artworkGroup },
  { name: 'lookup', summary: 'Reference lists: countries, platforms, genres, languages', load: async () => (await import('./lookup/spec.js')).lookupGroup },
  { name: 'artist', summary: 'Find and resolve artist profiles on the external platforms', load: async () => (await import('./artist/spec.js')).artistGroup },
  {
    name: 'prefs',
    summary: 'Artist and label preferences: names, defaults, platform profiles',
    load: async () => (await import('./prefs/spec.js')).prefsGroup,
  },
  { name: 'label', summary: 'The artists a label manages', load: async () => (await import('./label/spec.js')).labelGroup },
  {
    name: 'events',
    summary: "What happened to the account's releases, in order; follow it live",
    load: async () => (await import('./events/spec.js')).eventsGroup,
  },
  {
    name: 'webhook',
    summary: "Send the account's events to your URLs, signed and retried",
    load: async () => (await import('./webhook/spec.js')).webhookGroup,
  },
  {
    name: 'upload',
    summary: 'Uploads no track names yet: list them, discard them',
    load: async () => (await import('./upload/spec.js')).uploadGroup,
  },
  {
    name: 'sandbox',
    summary: 'Review, deliver and take down releases on a sandbox; free its disk',
    load: async () => (await import('./sandbox/spec.js')).sandboxGroup,
  },
];
