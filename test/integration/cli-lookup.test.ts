// `reldist lookup …` and `reldist me` against the real reference service.
import { describe, expect, it } from 'vitest';
import { transcript, useCli, type RunResult } from './cli-harness.js';

const cli = useCli();
const golden = (name: string) => `../fixtures/golden/lookup/${name}.txt`;
const run = (argv: string[], o: { tty?: boolean; token?: string } = {}): Promise<RunResult> => cli.run(argv, o);

describe('lookup', () => {
  for (const list of ['countries', 'platforms', 'genres', 'languages']) {
    it(`${list}: piped rows, a terminal table, one JSON value`, async () => {
      const piped = await run(['lookup', list]);
      expect(piped.code).toBe(0);
      await expect(transcript(piped)).toMatchFileSnapshot(golden(`${list}.piped`));
      await expect(transcript(await run(['lookup', list], { tty: true }))).toMatchFileSnapshot(golden(`${list}.tty`));
      const json = JSON.parse((await run(['lookup', list, '--json'])).stdout);
      expect(typeof json).toBe('object');
    });
  }

  it('countries hold ISO codes', async () => {
    const rows = JSON.parse((await run(['lookup', 'countries', '--json'])).stdout);
    expect(rows).toContainEqual({ code: 'DE', name: expect.any(String) });
  });
});

describe('me', () => {
  it('shows the user in both modes; --json is the camelCase User', async () => {
    await expect(transcript(await run(['me']))).toMatchFileSnapshot('../fixtures/golden/me/me.piped.txt');
    await expect(transcript(await run(['me'], { tty: true }))).toMatchFileSnapshot('../fixtures/golden/me/me.tty.txt');
    const user = JSON.parse((await run(['me', '--json'], { token: cli.server.tokens.artist })).stdout);
    expect(Object.keys(user)).toEqual(['id', 'kind', 'name', 'email', 'labelName', 'artistName', 'country', 'createdAt']);
    expect(user.kind).toBe('artist');
  });

  it('says how to log in when the token is refused', async () => {
    const r = await run(['me'], { token: 'rd_not_a_token' });
    expect(r.code).toBe(4);
    expect(r.stderr).toMatch(/\nhint: run `reldist auth login` or set RELDIST_TOKEN\n$/);
  });
});
