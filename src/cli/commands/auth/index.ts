import { defineGroup } from '../../command.js';
import { loginCommand } from './login.js';
import { logoutCommand } from './logout.js';
import { statusCommand } from './status.js';

export const authGroup = defineGroup({
  name: 'auth',
  summary: 'Sign in and out, and see which service and token are in use',
  examples: ['reldist auth login --base-url https://api.example.com', 'reldist auth status'],
  commands: [loginCommand, statusCommand, logoutCommand],
});
