// `reldist me` as --help and shell completion see it. Declarations only; the code is in me.ts.
import { defineCommand } from '../../command.js';

export const meCommand = defineCommand({
  name: 'me',
  summary: 'Show the user the token belongs to',
  description: `--json prints the normalized User of the specification, with camelCase fields (labelName, createdAt), made from the wire's snake_case UserResource by the contract's toUser. It is the form the specification documents for clients, and it stays the same if a service adds or renames wire fields. For the raw wire form, use \`reldist api GET /me\`.`,
  examples: ['reldist me', 'reldist me --json | jq -r .email', 'reldist api GET /me'],
});
