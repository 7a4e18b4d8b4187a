// `reldist artist search|resolve` against the real reference service and its seeded directory.
import { describe, expect, it } from 'vitest';
import { transcript, useCli, type RunResult } from './cli-harness.js';

const cli = useCli();
const golden = (name: string) => `../fixtures/golden/artist/${name}.txt`;
const run = (argv: string[], o: { tty?: boolean } = {}): Promise<RunResult> => cli.run(argv, o);

const link = 'https://open.streaming-a.example/intl-de/artist/cn3Vv2aLARkJ1of1D5NpI2?si=abc';

describe('artist search', () => {
  it('searches all three platforms at once, one list (piped, terminal, --json)', async () => {
    await expect(transcript(await run(['artist', 'search', 'Lena Voss', '--limit', '2']))).toMatchFileSnapshot(golden('search-all.piped'));
    await expect(transcript(await run(['artist', 'search', 'Lena Voss', '--limit', '2'], { tty: true }))).toMatchFileSnapshot(golden('search-all.tty'));
    const r = await run(['artist', 'search', 'Lena Voss', '--json']);
    const rows = JSON.parse(r.stdout);
    expect(Array.isArray(rows)).toBe(true);
    expect(new Set(rows.map((x: any) => x.platform))).toEqual(new Set(['streaming_a', 'video_b', 'store_c']));
  });

  it('asks one platform with --platform', async () => {
    const r = await run(['artist', 'search', 'Lena Voss', '--platform', 'store-c', '--json']);
    expect(r.code, r.stderr).toBe(0);
    const rows = JSON.parse(r.stdout);
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.every((x: any) => x.platform === 'store_c')).toBe(true);
    const bad = await run(['artist', 'search', 'Lena', '--platform', 'radio']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^error: --platform: expected one of streaming_a, video_b, store_c, got "radio"\n/);
  });

  it('finds nothing without failing', async () => {
    const r = await run(['artist', 'search', 'Qwxzv Nobody', '--platform', 'streaming_a'], { tty: true });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe('no profiles found for "Qwxzv Nobody"\n');
    expect((await run(['artist', 'search', 'Qwxzv Nobody', '--json'])).stdout).toBe('[]\n');
  });
});

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
    expect(r.stderr.trimEnd().split('\n').filter((l) => l.startsWith('error:'))).toHaveLength(1);
  });
});
