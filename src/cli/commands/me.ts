import { defineCommand } from '../command.js';

export const meCommand = defineCommand({
  name: 'me',
  summary: 'Show the user the token belongs to',
  description: `--json prints the normalized User of the specification, with camelCase fields (labelName, createdAt), made from the wire's snake_case UserResource by the contract's toUser. It is the form the specification documents for clients, and it stays the same if a service adds or renames wire fields. For the raw wire form, use \`reldist api GET /me\`.`,
  examples: ['reldist me', 'reldist me --json | jq -r .email', 'reldist api GET /me'],
  async run(ctx) {
    const { api } = await import('./release/common.js');
    const { toUser } = await import('../../contract/user.js');
    const { printRecord } = await import('../output/index.js');
    type UserResource = import('../../contract/index.js').UserResource;
    const user = toUser(await (await api(ctx)).call('getMe'));
    await printRecord(ctx, user, [
      { header: 'ID', value: 'id', kind: 'id' },
      { header: 'Name', value: 'name' },
      { header: 'Email', value: 'email' },
      { header: 'Kind', value: 'kind' },
      { header: 'Label', value: 'labelName' },
      { header: 'Artist', value: 'artistName' },
      { header: 'Country', value: 'country' },
      { header: 'Created', value: 'createdAt', kind: 'date' },
    ]);
  },
});
