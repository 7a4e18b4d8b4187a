// Output rendering in terminal and piped mode, compared with exact expected text (goldens).
import { describe, expect, it } from 'vitest';
import { fitColumns, truncate } from '../../src/cli/output/fit.js';
import { renderList, renderRecord } from '../../src/cli/output/render.js';
import { formatCell, jsonText, relativeTime, visible, type Column } from '../../src/cli/output/format.js';
import { printList, printRecord, note, progress, success, warn } from '../../src/cli/output/index.js';
import { printListPages } from '../../src/cli/output/list-pages.js';
import { makeContext } from '../../src/cli/program.js';
import { bufferIO } from '../helpers/buffer-io.js';

const now = new Date('2026-03-10T12:00:00Z');
const rows = [
  { id: 7, title: 'Night Drive', status: 'draft', created_at: '2026-03-10T09:00:00Z', artists: ['Ada', 'Bo'] },
  { id: 12, title: 'Tabs\tand\nlines', status: 'live', created_at: '2026-02-01T00:00:00Z', artists: [] },
];
const columns: Column<(typeof rows)[number]>[] = [
  { header: 'ID', value: 'id', kind: 'id' },
  { header: 'TITLE', value: 'title' },
  { header: 'STATUS', value: 'status', kind: 'status' },
  { header: 'CREATED', value: 'created_at', kind: 'date' },
  { header: 'ARTISTS', value: 'artists' },
];

describe('renderList', () => {
  it('piped: tab-separated rows, no header, ISO dates, no colour', async () => {
    const out = await renderList(rows, columns, { mode: 'plain', color: false, now });
    expect(out).toBe('7\tNight Drive\tdraft\t2026-03-10T09:00:00.000Z\tAda, Bo\n' + '12\tTabs and lines\tlive\t2026-02-01T00:00:00.000Z\t\n');
  });

  it('terminal without colour: an aligned table with a header and relative dates', async () => {
    const out = await renderList(rows.slice(0, 1), columns, { mode: 'terminal', color: false, now });
    expect(out).toBe('ID  TITLE        STATUS  CREATED      ARTISTS\n' + '7   Night Drive  draft   3 hours ago  Ada, Bo\n');
  });

  it('terminal with colour: status and header painted with ANSI codes', async () => {
    const out = await renderList(rows.slice(0, 1), columns, { mode: 'terminal', color: true, now });
    expect(out).toContain('\u001b[1mID\u001b[22m');
    expect(out).toContain('\u001b[90mdraft\u001b[39m');
    expect(out.replace(/\u001b\[\d+m/g, '')).toContain('Night Drive');
  });
});

describe('renderRecord', () => {
  const fields = [
    { header: 'Title', value: 'title' },
    { header: 'Status', value: 'status', kind: 'status' as const },
    { header: 'Missing', value: 'nope' },
  ];
  it('terminal: aligned label/value lines, a dash for missing values', async () => {
    expect(await renderRecord(rows[0], fields, { mode: 'terminal', color: false, now })).toBe('Title:    Night Drive\nStatus:   draft\nMissing:  -\n');
  });
  it('piped: label<TAB>value lines, empty for missing', async () => {
    expect(await renderRecord(rows[0], fields, { mode: 'plain', color: false, now })).toBe('Title\tNight Drive\nStatus\tdraft\nMissing\t\n');
  });
});

describe('formatting', () => {
  it('relative times read like a person would say them', () => {
    expect(relativeTime(new Date('2026-03-10T11:59:50Z'), now)).toBe('just now');
    expect(relativeTime(new Date('2026-03-10T11:58:00Z'), now)).toBe('2 minutes ago');
    expect(relativeTime(new Date('2026-03-09T12:00:00Z'), now)).toBe('1 day ago');
    expect(relativeTime(new Date('2026-03-12T12:00:00Z'), now)).toBe('in 2 days');
  });
  it('booleans and objects', () => {
    expect(formatCell(true, undefined, 'terminal', now)).toBe('yes');
    expect(formatCell(true, undefined, 'plain', now)).toBe('true');
    expect(formatCell({ a: 1 }, undefined, 'plain', now)).toBe('{"a":1}');
  });
});

const globals = { json: false, debug: false, quiet: false, input: true, yes: false, color: undefined, profile: undefined, baseUrl: undefined };

describe('print helpers', () => {
  it('a list printed page by page is byte for byte the list printed at once (JSON, piped rows, terminal)', async () => {
    async function* pagesOf<T>(all: readonly T[], size: number) {
      for (let i = 0; i < all.length; i += size) yield all.slice(i, i + size);
    }
    const many = Array.from({ length: 7 }, (_, i) => rows[i % rows.length]!);
    for (const [tty, json] of [
      [false, true],
      [false, false],
      [true, false],
      [true, true],
    ] as const) {
      for (const list of [many, []]) {
        const whole = bufferIO(tty);
        await printList(makeContext({ io: whole.io, env: { NO_COLOR: '1' }, now: () => now }, { ...globals, json }), list, columns, { empty: 'No releases' });
        const paged = bufferIO(tty);
        let fetched = 0;
        await printListPages(makeContext({ io: paged.io, env: { NO_COLOR: '1' }, now: () => now }, { ...globals, json }), pagesOf(list, 3), columns, {
          empty: 'No releases',
          fetched: () => fetched++,
        });
        expect([paged.out(), paged.err()]).toEqual([whole.out(), whole.err()]);
        expect(fetched).toBe(1);
      }
    }
  });

  it('--json: one JSON array on stdout, also for an empty list; nothing on stderr', async () => {
    const b = bufferIO(false);
    const ctx = makeContext({ io: b.io, env: {}, now: () => now }, { ...globals, json: true });
    await printList(ctx, [], columns, { empty: 'No releases' });
    expect(JSON.parse(b.out())).toEqual([]);
    expect(b.err()).toBe('');
  });

  it('an empty list on a terminal says so on stderr and prints no data', async () => {
    const b = bufferIO(true);
    const ctx = makeContext({ io: b.io, env: { NO_COLOR: '1' }, now: () => now }, globals);
    await printList(ctx, [], columns, { empty: 'No releases' });
    expect(b.out()).toBe('');
    expect(b.err()).toBe('No releases\n');
  });

  it('NO_COLOR keeps a terminal table free of escape codes', async () => {
    const b = bufferIO(true);
    const ctx = makeContext({ io: b.io, env: { NO_COLOR: '1' }, now: () => now }, globals);
    await printRecord(ctx, rows[0], [{ header: 'Status', value: 'status', kind: 'status' }]);
    expect(b.out()).toBe('Status:  draft\n');
  });

  it('notes, warnings and success lines go to stderr on a terminal only, never with --quiet', async () => {
    const piped = bufferIO(false);
    const pctx = makeContext({ io: piped.io, env: {} }, globals);
    note(pctx, 'a note');
    warn(pctx, 'a warning');
    success(pctx, 'Created release 1');
    await printList(pctx, [], columns, { empty: 'no releases found' });
    expect(piped.err()).toBe('');
    expect(piped.out()).toBe('');
    const tty = bufferIO(true);
    const tctx = makeContext({ io: tty.io, env: {} }, globals);
    note(tctx, 'a note');
    warn(tctx, 'a warning');
    success(tctx, 'Created release 1');
    await printList(tctx, [], columns, { empty: 'no releases found' });
    expect(tty.err()).toBe('a note\nwarning: a warning\n✓ Created release 1\nno releases found\n');
    expect(tty.out()).toBe('');
    const quiet = bufferIO(true);
    const qctx = makeContext({ io: quiet.io, env: {} }, { ...globals, quiet: true });
    warn(qctx, 'a warning');
    success(qctx, 'done');
    expect(quiet.err()).toBe('');
  });

  it('--quiet silences notes; progress draws only on a terminal', () => {
    const piped = bufferIO(false);
    const ctx = makeContext({ io: piped.io, env: {} }, globals);
    const p = progress(ctx, 'Uploading', { total: 10 });
    p.update(10);
    p.done();
    expect(piped.err()).toBe('');
    const quiet = bufferIO(true);
    note(makeContext({ io: quiet.io, env: {} }, { ...globals, quiet: true }), 'hello');
    expect(quiet.err()).toBe('');
    const tty = bufferIO(true);
    const p2 = progress(makeContext({ io: tty.io, env: {} }, globals), 'Uploading', { total: 2048, unit: 'bytes' });
    p2.update(2048);
    p2.done('done');
    expect(tty.err()).toContain('Uploading: 100%, 2.0 KiB of 2.0 KiB');
    expect(tty.err().endsWith('done\n')).toBe(true);
  });
});

describe('fitting a table to the terminal', () => {
  const columns = [{ header: 'ID' }, { header: 'TITLE', cut: true }, { header: 'UPC', drop: 2 }, { header: 'TYPE', drop: 1 }];
  const cells = [['12', 'A Very Long Title That Goes On And On', '200000100018', 'single']];

  it('keeps everything when it fits', () => {
    expect(fitColumns(columns, cells, 200, 2)).toEqual({ keep: [0, 1, 2, 3], widths: [2, 37, 12, 6], hidden: [] });
  });

  it('cuts long text to a readable width first, then drops the highest `drop` first, then cuts further; never an id', () => {
    expect(fitColumns(columns, cells, 50, 2)).toEqual({ keep: [0, 1, 2, 3], widths: [2, 24, 12, 6], hidden: [] });
    expect(fitColumns(columns, cells, 40, 2)).toEqual({ keep: [0, 1, 3], widths: [2, 24, 6], hidden: [2] });
    expect(fitColumns(columns, cells, 20, 2)).toEqual({ keep: [0, 1], widths: [2, 16], hidden: [2, 3] });
    // Narrower than the id and the shortest title: the columns go from the right, the first stays.
    expect(fitColumns(columns, cells, 3, 2)).toEqual({ keep: [0], widths: [2], hidden: [1, 2, 3] });
  });

  it('truncates with an ellipsis, counting characters', () => {
    expect(truncate('Northern Sky', 8)).toBe('Norther…');
    expect(truncate('Northern Sky', 12)).toBe('Northern Sky');
    expect(truncate('Café Olé', 5)).toBe('Café…');
  });
});

describe('control characters from the service', () => {
  const title = 'Evil\u001b[2J\u001b]0;owned\u0007 Title\u009b31m\r\nnext';
  const columns = [{ header: 'TITLE', value: 'title' }] as const;

  it('never reach the output raw: tables, TSV, records and JSON', async () => {
    const outputs = [
      await renderList([{ title }], columns, { mode: 'plain', color: false, now }),
      await renderList([{ title }], columns, { mode: 'terminal', color: true, now, width: 200 }),
      await renderRecord({ title }, [{ header: 'TITLE', value: 'title' }], { mode: 'plain', color: false, now }),
      await renderRecord({ title }, [{ header: 'TITLE', value: 'title' }], { mode: 'terminal', color: false, now }),
      jsonText({ title }, 2),
    ];
    for (const text of outputs) {
      // Colours, tabs between TSV cells and line ends are ours; nothing of the title's own controls survives.
      expect(text.replace(/\u001b\[[0-9;]*m/g, '')).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/);
      expect(text).not.toContain('\u001b[2J');
    }
    expect(visible(title)).toBe('Evil\\x1b[2J\\x1b]0;owned\\x07 Title\\x9b31m next');
    expect(JSON.parse(jsonText({ title }))).toEqual({ title });
  });
});
