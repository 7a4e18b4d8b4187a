// The pieces of `reldist validate` below the command: the byte fast path must say exactly what the
// engine and the slow formatters say, JSON must round-trip any input, and the line splitter must
// survive any chunking.
import { Readable, Writable } from 'node:stream';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkIsrc, checkUpc, codeKey, plainValidIsrc, plainValidUpcLength, upcCheckDigit } from '../../src/codes/index.js';
import { fastLines, type FastMode } from '../../src/cli/commands/validate/fast.js';
import { jsonLine, jsonString, plainRow, tsvField } from '../../src/cli/commands/validate/format.js';
import { eachLine, type LineHandler } from '../../src/cli/commands/validate/lines.js';
import { ByteWriter } from '../../src/cli/commands/validate/writer.js';
import { DuplicateIndex, duplicateProblem, placeText } from '../../src/cli/commands/validate/duplicates.js';

const YEAR = 2026;
const digit = fc.integer({ min: 0, max: 9 }).map(String);
const digits = (min: number, max: number) => fc.array(digit, { minLength: min, maxLength: max }).map((a) => a.join(''));
const validUpc = fc
  .oneof(
    digits(11, 11),
    digits(12, 12),
    digits(12, 12).map((d) => `0${d}`),
  )
  .map((d) => d + upcCheckDigit(d));
const isrcLike = fc.stringMatching(/^[A-Z]{2}[A-Z0-9]{3}[0-9]{7}$/);

function collector(): { stream: Writable; text: () => string } {
  const chunks: Buffer[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _enc, cb) {
      chunks.push(Buffer.from(chunk));
      cb();
    },
  });
  return { stream, text: () => Buffer.concat(chunks).toString('utf8') };
}

describe('byte fast path', () => {
  it('accepts exactly the plain valid UPCs that have no problem at all', () => {
    fc.assert(
      fc.property(fc.oneof(validUpc, digits(0, 15), fc.string({ maxLength: 15 })), (code) => {
        const b = Buffer.from(code);
        const r = checkUpc(code);
        const plain = /^[0-9]*$/.test(code) && r.valid && r.problems.length === 0;
        expect(plainValidUpcLength(b, 0, b.length)).toBe(plain ? code.length : 0);
      }),
    );
    expect(plainValidUpcLength(Buffer.from('000000000000'), 0, 12)).toBe(0);
  });

  it('accepts exactly the compact ISRCs that have no problem at all', () => {
    fc.assert(
      fc.property(fc.oneof(isrcLike, fc.string({ maxLength: 13 })), (code) => {
        const b = Buffer.from(code);
        const r = checkIsrc(code, { currentYear: YEAR });
        expect(plainValidIsrc(b, 0, b.length, YEAR)).toBe(r.valid && r.problems.length === 0 && r.normalized === code);
      }),
    );
    const next = Buffer.from('USRC12700001');
    expect([plainValidIsrc(next, 0, 12, 2026), plainValidIsrc(next, 0, 12, 2027), plainValidIsrc(next, 0, 12, 2026)]).toEqual([false, true, false]);
  });
});

// What `validate` writes for a whole input, cut into the given chunks: with the fast path (fused
// per-chunk loop) or with the general path only (every line decoded, checked and formatted).
async function validated(kind: 'upc' | 'isrc', mode: FastMode, pieces: Buffer[], fast: boolean): Promise<{ out: string; valid: number; checked: number }> {
  const c = collector();
  const w = new ByteWriter(c.stream);
  let valid = 0;
  let checked = 0;
  // What check-codes.ts does with a line: the engine's verdict, and a valid code seen before warned.
  const duplicates = new DuplicateIndex();
  const line: LineHandler = (b, s, e, at) => {
    const text = b.toString('utf8', s, e);
    let v = kind === 'upc' ? checkUpc(text) : checkIsrc(text, { currentYear: YEAR });
    if (v.valid && v.normalized !== null) {
      const first = duplicates.firstOrAdd(codeKey(kind, v.normalized), at ?? 0);
      if (first !== 0) v = { ...v, problems: [...v.problems, duplicateProblem(placeText(first))] };
    }
    checked++;
    if (v.valid) valid++;
    w.text(mode === 'json' ? jsonLine(text, v, kind === 'isrc') : plainRow(text, v));
  };
  const f = fast ? fastLines(kind, mode, YEAR, w, line, { lineNumbers: false, duplicates }) : undefined;
  await eachLine(Readable.from(pieces), 'test', { line, lines: f?.lines }, () => w.maybeFlush());
  await w.flush();
  const n = f?.valid() ?? 0;
  return { out: c.text(), valid: valid + n, checked: checked + n };
}

function cut(whole: Buffer, cuts: number[]): Buffer[] {
  const at = [0, ...cuts.filter((x) => x > 0 && x < whole.length).sort((a, b) => a - b), whole.length];
  return at.slice(1).map((end, i) => whole.subarray(at[i], end));
}

// Lines of every sort the fast path must either write exactly as the general path or leave alone.
const isrcPrefix = fc.constantFrom('US', 'GB', 'QZ', 'IS', 'XX', 'AN', 'ZZ', 'Aa', '1S');
const isrcCode = fc
  .tuple(isrcPrefix, fc.stringMatching(/^[A-Z0-9]{3}$/), fc.integer({ min: 0, max: 99 }), fc.stringMatching(/^[0-9]{5}$/))
  .map(([cc, reg, yy, n]) => `${cc}${reg}${String(yy).padStart(2, '0')}${n}`);
const someLine = fc.oneof(
  { weight: 6, arbitrary: isrcCode },
  { weight: 6, arbitrary: validUpc },
  { weight: 2, arbitrary: isrcCode.map((c) => c.toLowerCase()) },
  { weight: 2, arbitrary: isrcCode.map((c) => `${c.slice(0, 2)}-${c.slice(2, 5)}-${c.slice(5, 7)}-${c.slice(7)}`) },
  { weight: 1, arbitrary: isrcCode.map((c) => `ISRC ${c}`) },
  { weight: 2, arbitrary: validUpc.map((c) => `${c.slice(0, 1)} ${c.slice(1)}`) },
  { weight: 2, arbitrary: digits(11, 15) },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      '000000000000',
      '0000000000000',
      '10000000000007',
      'ıTABC2300001',
      'US‐RC1760783',
      '０３６０００２４１４５７',
      '"quoted\\"',
      'USRC1760783X',
      'USRC17607839\u0000',
    ),
  },
  // A CR that does not end the line.
  { weight: 1, arbitrary: fc.constantFrom('USRC17607839\rX', 'USRC17607839\r', '036000241457\r036000241457', '0360002414571\r') },
  { weight: 1, arbitrary: fc.constantFrom('', ' ', '\t', ' \t ', '\r') },
  { weight: 1, arbitrary: fc.string({ maxLength: 16 }) },
);
const someInput = fc.tuple(fc.array(fc.tuple(someLine, fc.boolean()), { maxLength: 40 }), fc.boolean(), fc.boolean()).map(([lines, bom, lastNewline]) => {
  const text = lines.map(([l, crlf]) => l + (crlf ? '\r\n' : '\n')).join('');
  return Buffer.from((bom ? '\ufeff' : '') + (lastNewline ? text : text.replace(/\r?\n$/, '')));
});

describe('fused per-chunk fast path', () => {
  it('writes byte for byte what the general path writes, and counts the same, however the input is cut', async () => {
    await fc.assert(
      fc.asyncProperty(
        someInput,
        fc.array(fc.integer({ min: 1, max: 2000 }), { maxLength: 5 }),
        fc.constantFrom<'upc' | 'isrc'>('upc', 'isrc'),
        fc.constantFrom<FastMode>('json', 'plain'),
        async (input, cuts, kind, mode) => {
          const pieces = cut(input, cuts);
          const general = await validated(kind, mode, pieces, false);
          expect(await validated(kind, mode, pieces, true)).toEqual(general);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('stays identical across many output buffers (the writer spills and reuses them)', async () => {
    const lines = [
      'USRC17607839',
      'GBAYE0601498\r',
      'us-rc1-76-07839',
      'XXABC2000001',
      'USRC12700001',
      '036000241457',
      '0036000241457',
      '00036000241457',
      'USRC1760783X',
      '',
      '4006381333931',
      'ISRC USRC17607839',
      'ISRC USRC176078',
      '0 36000 24145 7',
      '0 36000 2414',
    ];
    const input = Buffer.from(Array.from({ length: 60_000 }, (_, i) => lines[i % lines.length]).join('\n'));
    for (const kind of ['upc', 'isrc'] as const) {
      for (const mode of ['json', 'plain'] as const) {
        const pieces = cut(input, [65_536, 65_537, 300_001, 300_013]);
        const general = await validated(kind, mode, pieces, false);
        expect(general.out.length).toBeGreaterThan(1 << 20);
        expect(await validated(kind, mode, pieces, true)).toEqual(general);
      }
    }
  });

  it('takes the plain valid lines itself and leaves the rest to the general path', async () => {
    const input = Buffer.from('USRC17607839\nUSRC17607839\r\nus-rc1-76-07839\r\nISRC USRC17607839\nXXABC2000001\nUSRC1760783X\nUS_RC17607839\n\n');
    const c = collector();
    const w = new ByteWriter(c.stream);
    const slow: string[] = [];
    const f = fastLines('isrc', 'json', YEAR, w, (b, s, e) => slow.push(b.toString('utf8', s, e)), { lineNumbers: false, duplicates: new DuplicateIndex() });
    expect(f.lines(input, 0, input.length, 2)).toBe(8);
    // The second USRC17607839 is a duplicate, written here with its warning; the display form, a
    // third, was first seen on an earlier line too, but only a bare code is written from a stamp.
    expect(f.valid()).toBe(2);
    expect(f.repeated()).toBe(1);
    expect(slow).toEqual(['us-rc1-76-07839', 'ISRC USRC17607839', 'XXABC2000001', 'USRC1760783X', 'US_RC17607839']);
  });
});

describe('output formats', () => {
  it('jsonString round-trips any string, and JSON lines parse', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (s) => {
        expect(JSON.parse(jsonString(s))).toBe(s);
        const line = jsonLine(s, checkUpc(s), false);
        expect(line.endsWith('\n')).toBe(true);
        expect(line.slice(0, -1)).not.toContain('\n');
        const parsed = JSON.parse(line);
        expect(parsed.input).toBe(s);
        expect(Object.keys(parsed)).toEqual(['input', 'valid', 'normalized', 'kind', 'problems']);
      }),
    );
    expect(jsonString('a"b\\c\u0001\u2028é')).toBe(JSON.stringify('a"b\\c\u0001\u2028é'));
  });

  it('a TSV field never breaks the row and keeps backslashes reversible', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (s) => {
        expect(tsvField(s)).not.toMatch(/[\t\r\n]/);
      }),
    );
    expect(tsvField('a\tb\\c\r')).toBe('a\\tb\\\\c\\r');
    expect(plainRow('x', checkUpc('x')).split('\t')).toHaveLength(4);
  });
});

async function linesOf(pieces: (string | Buffer)[]): Promise<string[]> {
  const out: string[] = [];
  let chunks = 0;
  await eachLine(
    Readable.from(pieces.map((p) => (typeof p === 'string' ? Buffer.from(p) : p))),
    'test',
    (b, s, e) => out.push(b.toString('utf8', s, e)),
    () => {
      chunks++;
      return undefined;
    },
  );
  expect(chunks).toBe(pieces.length);
  return out;
}

describe('line splitter', () => {
  it('skips blank lines, tolerates CRLF and a missing last newline, drops a BOM', async () => {
    expect(await linesOf(['\ufeffa\r\n\r\n  \t \nb\n\nc'])).toEqual(['a', 'b', 'c']);
    expect(await linesOf(['a\r', '\nb'])).toEqual(['a', 'b']);
    expect(await linesOf([''])).toEqual([]);
    expect(await linesOf([' x \n'])).toEqual([' x ']);
  });

  it('gives the same lines however the input is cut into chunks', async () => {
    const text = '\ufeff036000241457\r\nUS‐RC1\n\n٠١٢\r\n  \nlast';
    const whole = Buffer.from(text);
    const expected = ['036000241457', 'US‐RC1', '٠١٢', 'last'];
    await fc.assert(
      fc.asyncProperty(fc.uniqueArray(fc.integer({ min: 1, max: whole.length - 1 }), { maxLength: 6 }), async (cuts) => {
        const sorted = [0, ...cuts.sort((a, b) => a - b), whole.length];
        const pieces = sorted.slice(1).map((end, i) => whole.subarray(sorted[i], end));
        expect(await linesOf(pieces)).toEqual(expected);
      }),
    );
  });

  it('refuses a line longer than 1 MiB instead of buffering it', async () => {
    const big = Buffer.alloc((1 << 20) + 10, 0x31);
    await expect(linesOf([big])).rejects.toThrow(/line 1 is longer than/);
  });
});
