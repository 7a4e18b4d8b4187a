import type { Context } from '../../context.js';
import { jsonId, printRecord } from '../../output/index.js';

export async function run(ctx: Context): Promise<void> {
  const raw = await (await ctx.services.client()).call('getMe');
  // The UserResource's own fields, snake_case like every other output (not the specification's
  // camelCase User); picked, so a field a service adds does not change what scripts read.
  const { id, kind, name, email, label_name, artist_name, country, created_at } = raw;
  const user = { id: jsonId(id), kind, name, email, label_name, artist_name, country, created_at };
  await printRecord(ctx, user, [
    { header: 'ID', value: 'id', kind: 'id' },
    { header: 'Name', value: 'name' },
    { header: 'Email', value: 'email' },
    { header: 'Kind', value: 'kind' },
    { header: 'Label', value: 'label_name' },
    { header: 'Artist', value: 'artist_name' },
    { header: 'Country', value: 'country' },
    { header: 'Created', value: 'created_at', kind: 'date' },
  ]);
}
