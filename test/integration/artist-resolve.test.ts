// `reldist artist resolve` against the real reference service and its seeded directory.
import { describe, expect, it } from 'vitest';
import { transcript, useCli, type RunResult } from './cli-harness.js';

const cli = useCli();
const golden = (name: string) => `../fixtures/golden/artist/${name}.txt`;
const run = (argv: string[], o: { tty?: boolean } = {}): Promise<RunResult> => cli.run(argv, o);

const link = 'https://open.streaming-a.example/intl-de/artist/cn3Vv2aLARkJ1of1D5NpI2?si=abc';

describe('artist resolve', () => {
  it('detects the platform from a pasted link (piped, terminal)', async () => {
    await expect(transcript(await run(['artist', 'resolve', link]))).toMatchFileSnapshot(golden('resolve.piped'));
    await expect(transcript(await run(['artist', 'resolve', link], { tty: true }))).toMatchFileSnapshot(golden('resolve.tty'));
  });

  it("uses the platform's own endpoint, or artist-via-link, with --platform", async () => {
    const own = JSON.parse((await run(['artist', 'resolve', 'cn3Vv2aLARkJ1of1D5NpI2', '--platform', 'streaming_a', '--json'])).stdout);
    const via = JSON.parse((await run(['artist', 'resolve', link, '--platform', 'streaming_a', '--via-link', '--json'])).stdout);
    expect(own).toMatchObject({ platform: 'streaming_a', id: 'cn3Vv2aLARkJ1of1D5NpI2', name: 'Lena Voss' });
    expect(via).toEqual(own);
    const needs = await run(['artist', 'resolve', link, '--via-link']);
    expect(needs.code).toBe(2);
    expect(needs.stderr).toMatch(/^error: --via-link needs --platform\n/);
  });

  it('refuses a link to a track with the reason', async () => {
    const r = await run(['artist', 'resolve', 'https://open.streaming-a.example/track/4uLU6hMCjMI75M1A2tKUQC']);
    expect(r.code).not.toBe(0);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^error: .*points to a track, not an artist/);
    expect(
      r.stderr
        .trimEnd()
        .split('\n')
        .filter((l) => l.startsWith('error:')),
    ).toHaveLength(1);
  });
});
