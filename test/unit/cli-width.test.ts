// Every line at 80 and 200 columns: tables keep to the width by cutting names and titles and
// hiding columns (and say which), never by cutting an id, a code or a URL; notes wrap at word
// boundaries; upload progress fits a terminal's line and, piped, writes a plain line every 10%
// or 10 s.
import { describe, expect, it } from 'vitest';
import type { ArtistPlatformResult, ReleaseResource, TrackResource } from '../../src/contract/index.js';
import type { WebhookEndpoint } from '../../src/contract/webhooks.js';
import { profileColumns } from '../../src/cli/commands/artist/view.js';
import { endpointColumns } from '../../src/cli/commands/webhook/views.js';
import { bufferIO } from '../helpers/buffer-io.js';
import { printList, type Column } from '../../src/cli/output/index.js';
import { formatBytes, progress, progressLine } from '../../src/cli/output/progress.js';
import { renderList, renderRecord } from '../../src/cli/output/render.js';
import { wrapText } from '../../src/cli/output/wrap.js';
import { makeContext } from '../../src/cli/program.js';
import { renderTable as watchTable } from '../../src/cli/commands/release/watch-view.js';
import { releaseColumns } from '../../src/cli/shared/release-views.js';
import { trackColumns } from '../../src/cli/shared/track-views.js';

const now = new Date('2026-03-10T12:00:00Z');
const WIDTHS = [80, 200] as const;
const globals = { json: false, debug: false, quiet: false, input: true, yes: false, color: undefined, profile: undefined, baseUrl: undefined };

const chars = (line: string) => [...line].length;

/** Rows of the shape a table reads; the fields its columns do not read are left out. */
function rowsOf<T>(rows: readonly Record<string, unknown>[]): T[] {
  return rows as unknown as T[];
}

const releases = rowsOf<ReleaseResource>([
  {
    id: 123456,
    status: 'in_review',
    type: 'compilation',
    title: 'A Very Long Title For A Compilation That Goes On Past Any Sensible Width',
    version: 'Deluxe Remastered Edition',
    artists: [
      { name: 'Second Artist With A Long Name', role: 'primary' },
      { name: 'Another Featured Guest', role: 'featuring' },
    ],
    track_count: 24,
    upc: '0840000123456',
    updated_at: '2026-03-10T09:00:00Z',
  },
  {
    id: 7,
    status: 'draft',
    type: 'single',
    title: 'Night Drive',
    version: null,
    artists: [{ name: 'Ada', role: 'primary' }],
    track_count: 1,
    upc: null,
    updated_at: '2026-03-01T00:00:00Z',
  },
]);

const tracks = rowsOf<TrackResource>([
  {
    id: 98765,
    disc: 1,
    position: 12,
    title: 'An Extended Title Of A Track With A Long Version Name',
    version: 'Extended Club Mix',
    isrc: 'GBAYE2600123',
    file: { filename: 'a-very-long-file-name-of-the-master-2026-final.wav', duration_ms: 421_000, state: 'ready' },
  },
]);

const profiles = rowsOf<ArtistPlatformResult>([
  {
    platform: 'streaming_a',
    id: 'cn3Vv2aLARkJ1of1D5NpI2',
    name: 'Siobhán Ní Dhomhnaill and the Northern Lights Orchestra',
    followers: 954_321,
    url: 'https://open.streaming-a.example/artist/cn3Vv2aLARkJ1of1D5NpI2',
  },
  { platform: 'video_b', id: 'UCzUKbL0IHOL4dfPNvRzVKJk', name: 'Lena Voss', followers: 19, url: 'https://video-b.example/channel/UCzUKbL0IHOL4dfPNvRzVKJk' },
]);

const endpoints = rowsOf<WebhookEndpoint>([
  {
    id: 3,
    url: 'https://hooks.example.com/reldist/a-rather-long-path/receiver',
    events: ['release.submitted', 'release.approved', 'release.rejected'],
    enabled: true,
    created_at: '2026-03-09T00:00:00Z',
  },
]);

interface Table<T> {
  name: string;
  rows: readonly T[];
  columns: readonly Column<T>[];
  /** Values that must show whole wherever their column is shown. */
  whole: readonly string[];
}

const tables: Table<never>[] = [
  { name: 'release list', rows: releases, columns: releaseColumns, whole: ['123456', '0840000123456', 'in_review', 'compilation'] },
  { name: 'track list', rows: tracks, columns: trackColumns, whole: ['98765', 'GBAYE2600123', '7:01'] },
  {
    name: 'artist search',
    rows: profiles,
    columns: profileColumns,
    whole: ['cn3Vv2aLARkJ1of1D5NpI2', 'UCzUKbL0IHOL4dfPNvRzVKJk', 'https://open.streaming-a.example/artist/cn3Vv2aLARkJ1of1D5NpI2', '954321'],
  },
  { name: 'webhook list', rows: endpoints, columns: endpointColumns, whole: ['https://hooks.example.com/reldist/a-rather-long-path/receiver'] },
] as unknown as Table<never>[];

describe.each(WIDTHS)('tables at %i columns', (width) => {
  it.each(tables.map((t) => [t.name, t] as const))('%s: every line fits; ids, codes and URLs whole or hidden, never cut', async (_name, table) => {
    let hidden: string[] = [];
    const out = await renderList(table.rows, table.columns, { mode: 'terminal', color: false, now, width, onHidden: (h) => (hidden = h) });
    const lines = out.trimEnd().split('\n');
    expect(lines).toHaveLength(table.rows.length + 1);
    for (const line of lines) expect(chars(line), line).toBeLessThanOrEqual(width);
    const header = lines[0]!.split(/ {2,}/);
    for (const value of table.whole) {
      const column = table.columns.findIndex((c) =>
        table.rows.some((r) => String(typeof c.value === 'function' ? c.value(r) : (r as Record<string, unknown>)[c.value]).includes(value)),
      );
      // A value that a shown column holds appears whole in its row; a hidden column is named.
      const shown = column === -1 || header.includes(table.columns[column]!.header);
      if (shown) expect(out, `${value} whole`).toContain(value);
      else expect(hidden).toContain(table.columns[column]!.header);
    }
    // What is hidden is exactly what the header lacks.
    expect(table.columns.filter((c) => !header.includes(c.header)).map((c) => c.header)).toEqual(hidden);
    if (width === 200) expect(hidden).toEqual([]);
  });
});

describe.each(WIDTHS)('release watch at %i columns', (width) => {
  it('its live table (redrawn by moving up over its lines) never wraps; catalog numbers whole', () => {
    const rows = [
      {
        id: 123456,
        catalogNumber: 'NLR-2026-DELUXE-0001',
        title: 'A Very Long Title For A Compilation That Goes On',
        status: 'in_review',
        since: new Date(now.getTime() - 3_725_000),
      },
      { id: 7, catalogNumber: null, title: 'Night Drive', status: 'draft', since: undefined },
    ];
    const lines = watchTable(rows, now, width).trimEnd().split('\n');
    expect(lines).toHaveLength(3);
    for (const line of lines) expect(chars(line), line).toBeLessThanOrEqual(width);
    expect(lines[1]).toContain('NLR-2026-DELUXE-0001');
    expect(lines[1]).toContain('in review');
    if (width === 200) expect(lines[1]).toMatch(/A Very Long Title For A Compilation Tha… +in review +1h2m5s$/);
  });
});

describe('the columns a table hides are said once on stderr', () => {
  it('80 columns: release list names them, after the table', async () => {
    const b = bufferIO(true, 80);
    await printList(makeContext({ io: b.io, env: { NO_COLOR: '1' }, now: () => now }, globals), releases, releaseColumns);
    expect(b.err()).toBe('TYPE, UPC, UPDATED hidden: widen the terminal or use --json\n');
    expect(b.out().split('\n')[0]).toBe('ID      STATUS     TITLE                     ARTISTS                   TRACKS');
    expect(b.out()).toContain('A Very Long Title For A…');
  });

  it('80 columns: artist search hides the URL rather than cut an id', async () => {
    const b = bufferIO(true, 80);
    await printList(makeContext({ io: b.io, env: { NO_COLOR: '1' }, now: () => now }, globals), profiles, profileColumns);
    expect(b.err()).toBe('URL hidden: widen the terminal or use --json\n');
    expect(b.out()).toContain('cn3Vv2aLARkJ1of1D5NpI2');
    expect(b.out()).toContain('954321');
  });

  it('200 columns, piped, or --quiet: nothing said', async () => {
    for (const [tty, width, quiet] of [
      [true, 200, false],
      [false, undefined, false],
      [true, 80, true],
    ] as const) {
      const b = bufferIO(tty, width);
      await printList(makeContext({ io: b.io, env: { NO_COLOR: '1' }, now: () => now }, { ...globals, quiet }), releases, releaseColumns);
      expect(b.err()).toBe('');
    }
  });
});

describe.each(WIDTHS)('records at %i columns', (width) => {
  it('long text wraps under its value column at word boundaries; a URL stays whole', async () => {
    const review = 'The cover shows a price and a URL; stores refuse artwork with text that advertises. Export a clean version and upload it again.';
    const url = 'https://cdn.example.com/covers/northern-lights-records/2026/a-rather-long-file-name-final.jpg';
    const out = await renderRecord(
      { id: 12, review, url },
      [
        { header: 'ID', value: 'id', kind: 'id' as const },
        { header: 'Review', value: 'review' },
        { header: 'Cover', value: 'url' },
      ],
      { mode: 'terminal', color: false, now, width },
    );
    const lines = out.trimEnd().split('\n');
    for (const line of lines) if (!line.includes(url)) expect(chars(line), line).toBeLessThanOrEqual(width);
    expect(out).toContain(url);
    if (width === 80) {
      expect(lines).toEqual([
        'ID:      12',
        'Review:  The cover shows a price and a URL; stores refuse artwork with text that',
        '         advertises. Export a clean version and upload it again.',
        // Longer than any line could hold: whole, to be copied.
        `Cover:   ${url}`,
      ]);
    } else expect(lines).toEqual(['ID:      12', `Review:  ${review}`, `Cover:   ${url}`]);
  });
});

const sandboxNote =
  'note: no service configured, so this uses the local sandbox (data in /tmp/rd); for a real service run `reldist auth login --base-url <url>` or set RELDIST_BASE_URL and RELDIST_TOKEN';

describe('notes wrap at word boundaries', () => {
  it.each(WIDTHS)('%i columns: every line fits, every word kept whole and in order', (width) => {
    const lines = wrapText(sandboxNote, width).split('\n');
    for (const line of lines) expect(chars(line)).toBeLessThanOrEqual(width);
    expect(lines.map((l) => l.trim()).join(' ')).toBe(sandboxNote);
    if (width === 80) {
      expect(lines.length).toBeGreaterThan(1);
      // Continuations are indented: they read as one message.
      for (const line of lines.slice(1)) expect(line.startsWith('  ')).toBe(true);
    } else expect(lines).toEqual([sandboxNote]);
  });

  it('a word longer than the line (a URL, a path) stays whole on a line of its own; indentation is kept', () => {
    const url = `https://example.com/${'x'.repeat(90)}`;
    expect(wrapText(`see ${url} now`, 80)).toBe(`see\n  ${url}\n  now`);
    expect(wrapText(`  items/one: ${'word '.repeat(20).trim()}`, 40)).toBe(
      '  items/one: word word word word word\n    word word word word word word word\n    word word word word word word word\n    word',
    );
    expect(wrapText('short\n\nlines', 10)).toBe('short\n\nlines');
    // A flag stays with its value.
    expect(wrapText('showing 2 of 6 releases (page 1 of 3); --page 2 for the next page, --per-page 100 for bigger pages, --all for every release', 80)).toBe(
      'showing 2 of 6 releases (page 1 of 3); --page 2 for the next page,\n  --per-page 100 for bigger pages, --all for every release',
    );
    // A command in backticks is one word: never split across lines.
    expect(wrapText('hint: is the service running? check --base-url, RELDIST_BASE_URL or `reldist auth status`', 80)).toBe(
      'hint: is the service running? check --base-url, RELDIST_BASE_URL or\n  `reldist auth status`',
    );
    expect(wrapText('check what exists (`reldist release list`) before running it again', 30)).toBe(
      'check what exists\n  (`reldist release list`)\n  before running it again',
    );
    expect(wrapText(sandboxNote, undefined)).toBe(sandboxNote);
  });
});

describe('upload progress', () => {
  const MiB = 1024 * 1024;

  it('sizes in one unit system, binary (KiB, MiB, GiB)', () => {
    expect(formatBytes(512)).toBe('512 B');
    expect(formatBytes(218.2 * 1024)).toBe('218.2 KiB');
    expect(formatBytes(5 * MiB)).toBe('5.0 MiB');
    expect(formatBytes(3 * 1024 * MiB)).toBe('3.0 GiB');
    expect(progressLine('Uploading a.wav', 3 * MiB, 10 * MiB, 'bytes', 2000)).toBe('Uploading a.wav: 30%, 3.0 MiB of 10.0 MiB, 1.5 MiB/s, 5s left');
    expect(progressLine('Uploading a.wav', 3 * MiB, 100 * MiB, 'bytes', 2000)).toBe('Uploading a.wav: 3%, 3.0 MiB of 100.0 MiB, 1.5 MiB/s, 1m05s left');
    // Too early for a rate: none is guessed.
    expect(progressLine('Uploading a.wav', 1024, 10 * MiB, 'bytes', 100)).toBe('Uploading a.wav: 0%, 1.0 KiB of 10.0 MiB');
  });

  it.each(WIDTHS)('%i-column terminal: one line redrawn in place, "file 2 of 5", within the width', (width) => {
    let t = 0;
    const b = bufferIO(true, width);
    const ctx = makeContext({ io: b.io, env: {}, now: () => new Date(t) }, globals);
    const path = 'masters/2026/a-label-with-a-long-name/an-album-with-a-long-title/07-a-long-track-title.wav';
    const bar = progress(ctx, `Uploading ${path}`, { unit: 'bytes', file: 2, files: 5 });
    for (let i = 1; i <= 10; i++) {
      t += 1000;
      bar.update(i * 4 * MiB, 40 * MiB);
    }
    bar.done();
    const draws = b.err().split('\r\x1b[2K').filter(Boolean);
    expect(draws).toHaveLength(10);
    for (const d of draws) {
      expect(chars(d)).toBeLessThan(width);
      // The path gives up its start: the file's name and its place stay.
      expect(d).toContain('track-title.wav (file 2 of 5): ');
      expect(d).not.toContain('\n');
    }
    expect(draws[4]).toMatch(/: 50%, 20\.0 MiB of 40\.0 MiB, 4\.0 MiB\/s, 5s left$/);
    if (width === 200) expect(draws[0]).toContain(`Uploading ${path}`);
    else expect(draws[0]!.startsWith('…')).toBe(true);
  });

  it('piped: a plain line at every 10%, never a carriage return', () => {
    let t = 0;
    const b = bufferIO(false);
    const ctx = makeContext({ io: b.io, env: {}, now: () => new Date(t) }, globals);
    const bar = progress(ctx, 'Uploading big.wav', { unit: 'bytes' });
    // 1% every 50 ms: the 10% marks come long before 10 s.
    for (let i = 1; i <= 100; i++) {
      t += 50;
      bar.update(i * 0.4 * MiB, 40 * MiB);
    }
    bar.done();
    expect(b.err()).not.toContain('\r');
    const lines = b.err().trimEnd().split('\n');
    expect(lines.map((l) => /: (\d+)%/.exec(l)?.[1])).toEqual(['10', '20', '30', '40', '50', '60', '70', '80', '90', '100']);
    expect(lines[0]).toBe('Uploading big.wav: 10%, 4.0 MiB of 40.0 MiB, 8.0 MiB/s, 5s left');
  });

  it('piped and slow: a line at least every 10 s between the 10% marks', () => {
    let t = 0;
    const b = bufferIO(false);
    const ctx = makeContext({ io: b.io, env: {}, now: () => new Date(t) }, globals);
    const bar = progress(ctx, 'Uploading big.wav', { unit: 'bytes', file: 1, files: 2 });
    const at: number[] = [];
    // 0.5% every 2 s: 10% takes 40 s.
    for (let i = 1; i <= 200; i++) {
      t += 2000;
      const before = b.err().length;
      bar.update(i * 0.2 * MiB, 40 * MiB);
      if (b.err().length > before) at.push(t);
    }
    const lines = b.err().trimEnd().split('\n');
    expect(lines).toHaveLength(at.length);
    for (const [i, when] of at.entries()) expect(when - (at[i - 1] ?? 0)).toBeLessThanOrEqual(10_000);
    expect(lines[0]).toBe('Uploading big.wav (file 1 of 2): 2%, 1.0 MiB of 40.0 MiB, 102.4 KiB/s, 6m30s left');
    expect(lines.at(-1)).toMatch(/: 100%, 40\.0 MiB of 40\.0 MiB, /);
  });

  it('piped: a file under 16 MiB that goes up quickly, page counts and --quiet print nothing', () => {
    let t = 0;
    const b = bufferIO(false);
    const ctx = makeContext({ io: b.io, env: {}, now: () => new Date(t) }, globals);
    const small = progress(ctx, 'Uploading small.flac', { unit: 'bytes' });
    for (let i = 1; i <= 10; i++) {
      t += 500;
      small.update(i * 1.5 * MiB, 15 * MiB);
    }
    const pages = progress(ctx, 'Fetching releases', { unit: 'items' });
    pages.update(3, 10);
    const quiet = progress(makeContext({ io: b.io, env: {} }, { ...globals, quiet: true }), 'Uploading big.wav', { unit: 'bytes' });
    quiet.update(40 * MiB, 40 * MiB);
    expect(b.err()).toBe('');
  });

  it('piped: a file under 16 MiB on a slow link still gets a line every 10 s, and only those', () => {
    let t = 0;
    const b = bufferIO(false);
    const ctx = makeContext({ io: b.io, env: {}, now: () => new Date(t) }, globals);
    const small = progress(ctx, 'Uploading small.flac', { unit: 'bytes' });
    // 5% every 2 s: 40 s in all, four 10 s marks.
    for (let i = 1; i <= 20; i++) {
      t += 2000;
      small.update(i * 0.75 * MiB, 15 * MiB);
    }
    const lines = b.err().trimEnd().split('\n');
    expect(lines.map((l) => /: (\d+)%/.exec(l)?.[1])).toEqual(['25', '50', '75', '100']);
  });
});
