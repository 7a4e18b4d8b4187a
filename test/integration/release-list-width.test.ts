// Tables fit the terminal: at 80 columns the less important columns go (and stderr says which)
// and long cells end in an ellipsis, one line per row; at 200 everything shows. Goldens for both
// widths. The paging note wraps to the width on a terminal and stays one line when piped.
import { beforeAll, describe, expect, it } from 'vitest';
import { transcript, useCli, type RunResult } from './cli-harness.js';
import { createReleases, draftFlags } from './release-fixtures.js';

const cli = useCli();
const golden = (name: string) => `../fixtures/golden/release/${name}.txt`;
const run = (argv: string[], o: { tty?: boolean; columns?: number } = {}): Promise<RunResult> => cli.run(argv, o);

beforeAll(async () => {
  await createReleases(run);
  const long = [...draftFlags.slice(0, 2), '--title', 'A Very Long Title For A Single That Goes On And On Past Any Sensible Width', ...draftFlags.slice(4)];
  const r = await run(['release', 'create', ...long, '--artist', 'Second Artist With A Long Name']);
  expect(r.code, r.stderr).toBe(0);
});

describe('release list on a terminal of a given width', () => {
  it('80 columns: drops UPC and the like first, truncates long cells with an ellipsis, never wraps', async () => {
    const r = await run(['release', 'list'], { tty: true, columns: 80 });
    await expect(transcript(r)).toMatchFileSnapshot(golden('list.tty-80'));
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(7);
    for (const line of lines) expect([...line].length).toBeLessThanOrEqual(80);
    expect(r.stdout).toContain('…');
    expect(lines[0]).not.toContain('UPC');
    // What was left out is said once, on stderr.
    expect(r.stderr).toBe('TRACKS, UPC, UPDATED hidden: widen the terminal or use --json\n');
  });

  it('80 columns: the paging note wraps at word boundaries, every line within the width', async () => {
    const r = await run(['release', 'list', '--per-page', '2'], { tty: true, columns: 80 });
    expect(r.code, r.stderr).toBe(0);
    const note = r.stderr.split('\n').filter((l) => !l.includes('hidden:') && l !== '');
    expect(note.length).toBeGreaterThan(1);
    for (const line of [...r.stdout.split('\n'), ...r.stderr.split('\n')]) expect([...line].length, line).toBeLessThanOrEqual(80);
    expect(note.map((l) => l.trim()).join(' ')).toBe(
      'showing 2 of 6 releases (page 1 of 3); --page 2 for the next page, --per-page 100 for bigger pages, --all for every release',
    );
    // Piped, the same note stays one line for a script to grep.
    const piped = await run(['release', 'list', '--per-page', '2']);
    expect(piped.stderr).toBe('showing 2 of 6 releases (page 1 of 3); --page 2 for the next page, --per-page 100 for bigger pages, --all for every release\n');
  });

  it('200 columns: every column, nothing cut', async () => {
    const r = await run(['release', 'list'], { tty: true, columns: 200 });
    await expect(transcript(r)).toMatchFileSnapshot(golden('list.tty-200'));
    expect(r.stdout).not.toContain('…');
    expect(r.stdout.split('\n')[0]).toContain('UPC');
  });

  it('piped output is never cut', async () => {
    const r = await run(['release', 'list'], { columns: 40 });
    expect(r.stdout).toContain('A Very Long Title For A Single That Goes On And On Past Any Sensible Width');
  });
});
