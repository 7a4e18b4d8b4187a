// The track and label-artist tables fit the terminal like the release table
// (release-list-width.test.ts): at 80 columns the less important columns go first (stderr says
// which), long titles end in an ellipsis, ids are never cut, one line per row; at 200 everything
// shows. Goldens for both widths.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { transcript, useCli, writeWav, type RunResult } from './cli-harness.js';
import { draftFlags } from './release-fixtures.js';

const cli = useCli();
let work: string;
const golden = (name: string) => `../fixtures/golden/${name}.txt`;
const run = (argv: string[], o: { tty?: boolean; columns?: number } = {}): Promise<RunResult> => cli.run(argv, o);

/** At `columns`: the golden, one line per row, none wider than the terminal. */
async function atWidth(argv: string[], columns: number, name: string, rows: number): Promise<string[]> {
  const r = await run(argv, { tty: true, columns });
  expect(r.code, r.stderr).toBe(0);
  await expect(transcript(r)).toMatchFileSnapshot(golden(name));
  const lines = r.stdout.trimEnd().split('\n');
  expect(lines).toHaveLength(rows + 1);
  for (const line of lines) expect([...line].length).toBeLessThanOrEqual(columns);
  return lines;
}

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'reldist-width-'));
  expect((await run(['release', 'create', ...draftFlags])).code).toBe(0);
  const files = ['northern-sky.wav', 'a-very-long-file-name-for-the-second-song-final-master-v3.wav'].map((f) => join(work, f));
  // Two recordings (the same audio twice is refused): the same length, other tones.
  for (const [i, f] of files.entries()) await writeWav(f, { seconds: 31, hz: 440 + 110 * i });
  const up = await run(['track', 'upload', '1', ...files]);
  expect(up.code, up.stderr).toBe(0);
  const edit = await run(['track', 'edit', '1', '1', '--isrc', 'GBNLR2600001', '--title', 'Northern Sky, As Heard From The Far End Of A Long Pier At Dawn']);
  expect(edit.code, edit.stderr).toBe(0);
});
afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

describe('track list on a terminal of a given width', () => {
  it('80 columns: the file name goes first, long titles end in an ellipsis', async () => {
    const lines = await atWidth(['track', 'list', '1'], 80, 'track/list.tty-80', 2);
    expect(lines[0]).not.toContain('FILE');
    expect(lines[0]).toMatch(/ISRC\s+DURATION\s+STATE$/);
    expect(lines[1]).toContain('…');
    expect(lines[1]).toContain('GBNLR2600001');
  });

  it('200 columns: every column, nothing cut', async () => {
    const lines = await atWidth(['track', 'list', '1'], 200, 'track/list.tty-200', 2);
    expect(lines[0]).toMatch(/ISRC\s+DURATION\s+FILE\s+STATE$/);
    expect(lines.join('\n')).not.toContain('…');
  });
});

describe('label artists list on a terminal of a given width', () => {
  it('80 columns: the platforms (which name profile ids) are hidden and said to be, never cut', async () => {
    const lines = await atWidth(['label', 'artists', 'list'], 80, 'prefs/label-artists-list.tty-80', 5);
    expect(lines[0]).toMatch(/^ID\s+NAME\s+RELEASES\s+SOURCE$/);
    expect(lines.join('\n')).not.toContain('…');
  });

  it('36 columns: where the artist comes from goes first, then the count', async () => {
    const r = await run(['label', 'artists', 'list'], { tty: true, columns: 36 });
    expect(r.stdout.split('\n')[0]).toMatch(/^ID\s+NAME\s+RELEASES$/);
    expect(r.stderr.replace(/\n\s*/g, ' ').trim()).toBe('SOURCE, PLATFORMS hidden: widen the terminal or use --json');
  });

  it('200 columns: every column, nothing cut', async () => {
    const lines = await atWidth(['label', 'artists', 'list'], 200, 'prefs/label-artists-list.tty-200', 5);
    expect(lines[0]).toMatch(/^ID\s+NAME\s+RELEASES\s+SOURCE\s+PLATFORMS$/);
    expect(lines.join('\n')).not.toContain('…');
  });
});
