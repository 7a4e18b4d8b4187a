// `reldist me` as --help and shell completion see it. Declarations only; the code is in me.ts.
import { defineCommand } from '../../command.js';

export const meCommand = defineCommand({
  name: 'me',
  summary: 'Show the user the token belongs to',
  description: `--json prints the user's fields in snake_case, like every other command: id, kind, name, email, label_name, artist_name, country, created_at. Only these: a field a service adds does not appear. For the raw wire form, use \`reldist api GET /me\`.`,
  examples: ['reldist me', 'reldist me --json | jq -r .email', 'reldist api GET /me'],
});
