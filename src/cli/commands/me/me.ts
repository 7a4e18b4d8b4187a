import type { Context } from '../../context.js';
import type { UserResource } from '../../../contract/index.js';
import { printRecord } from '../../output/index.js';
import { toUser } from '../../../contract/user.js';

export async function run(ctx: Context): Promise<void> {
  const user = toUser(await (await ctx.services.client()).call('getMe'));
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
}
