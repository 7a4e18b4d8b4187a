// `reldist me` against the real reference service.
import { describe, expect, it } from 'vitest';
import { transcript, useCli, type RunResult } from './cli-harness.js';

const cli = useCli();
const run = (argv: string[], o: { tty?: boolean; token?: string } = {}): Promise<RunResult> => cli.run(argv, o);

describe('me', () => {
  it('shows the user in both modes; --json is the wire UserResource, snake_case', async () => {
    await expect(transcript(await run(['me']))).toMatchFileSnapshot('../fixtures/golden/me/me.piped.txt');
    await expect(transcript(await run(['me'], { tty: true }))).toMatchFileSnapshot('../fixtures/golden/me/me.tty.txt');
    const user = JSON.parse((await run(['me', '--json'], { token: cli.server.tokens.artist })).stdout);
    expect(Object.keys(user)).toEqual(['id', 'kind', 'name', 'email', 'label_name', 'artist_name', 'country', 'created_at']);
    expect(user.kind).toBe('artist');
  });

  it('says how to log in when the token is refused', async () => {
    const r = await run(['me'], { token: 'rd_not_a_token' });
    expect(r.code).toBe(4);
    expect(r.stderr).toMatch(/\nhint: run `reldist auth login` or set RELDIST_TOKEN\n$/);
  });
});
