// `reldist lookup …` against the real reference service.
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
