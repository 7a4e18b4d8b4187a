// The `auth` group as --help and shell completion see it: its verbs, their arguments,
// help and flags. Declarations only (cheap to load); each verb's code is in <verb>.ts (see ../runners.ts).
import { defineCommand, defineGroup, option, type OptsOf } from '../../command.js';

export type LoginOpts = OptsOf<typeof loginCommand>;

export const loginCommand = defineCommand({
  name: 'login',
  summary: 'Sign in to a service and save the token in a profile',
  description:
    'Reads the token from a hidden prompt, or from stdin with --with-token (never from a flag), checks it with GET /me, ' +
    'then saves base URL and token in the profile (--profile, default "default") in a file only you can read.',
  examples: [
    'reldist auth login --base-url https://api.example.com',
    'reldist auth login --base-url https://api.example.com --with-token < token.txt',
    'echo "$TOKEN" | reldist auth login --profile ci --base-url https://api.example.com --with-token',
  ],
  options: [option('--with-token', 'read the token from stdin')],
});

export const logoutCommand = defineCommand({
  name: 'logout',
  summary: 'Forget the token and base URL saved in a profile',
  examples: ['reldist auth logout', 'reldist auth logout --profile ci'],
});

export const statusCommand = defineCommand({
  name: 'status',
  summary: 'Show which service, profile and token reldist uses, and who you are there',
  description: 'Checks the token with GET /me. The token itself is never shown: at most a hint like rd_…abcd.',
  examples: ['reldist auth status', 'reldist auth status --profile ci --json'],
});

export const authGroup = defineGroup({
  name: 'auth',
  summary: 'Sign in and out, and see which service and token are in use',
  examples: ['reldist auth login --base-url https://api.example.com', 'reldist auth status'],
  commands: [loginCommand, statusCommand, logoutCommand],
});
