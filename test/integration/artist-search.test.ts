// `reldist artist search` against the real reference service and its seeded directory.
import { describe, expect, it } from 'vitest';
import { transcript, useCli, type RunResult } from './cli-harness.js';

const cli = useCli();
const golden = (name: string) => `../fixtures/golden/artist/${name}.txt`;
const run = (argv: string[], o: { tty?: boolean } = {}): Promise<RunResult> => cli.run(argv, o);

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
