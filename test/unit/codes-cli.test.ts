// The pieces of `reldist validate` below the command: the byte fast path must say exactly what the
// engine and the slow formatters say, JSON must round-trip any input, and the line splitter must
// survive any chunking.
import { Readable, Writable } from 'node:stream';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkIsrc, checkUpc, plainValidIsrc, plainValidUpcLength, upcCheckDigit } from '../../src/codes/index.js';
import { isrcJsonFast, isrcPlainFast, upcJsonFast, upcPlainFast } from '../../src/cli/commands/validate/fast.js';
import { jsonLine, jsonString, plainRow, tsvField } from '../../src/cli/commands/validate/format.js';
import { eachLine } from '../../src/cli/commands/validate/lines.js';
import { ByteWriter } from '../../src/cli/commands/validate/writer.js';

const YEAR = 2026;
const digit = fc.integer({ min: 0, max: 9 }).map(String);
const digits = (min: number, max: number) => fc.array(digit, { minLength: min, maxLength: max }).map((a) => a.join(''));
const validUpc = fc.oneof(digits(11, 11), digits(12, 12), digits(12, 12).map((d) => `0${d}`)).map((d) => d + upcCheckDigit(d));
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

async function written(fill: (w: ByteWriter) => void): Promise<string> {
  const c = collector();
  const w = new ByteWriter(c.stream);
  fill(w);
  await w.flush();
  return c.text();
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

  it('writes the same JSON line and row as the formatters', async () => {
    await fc.assert(
      fc.asyncProperty(validUpc, async (code) => {
        fc.pre(!/^0+$/.test(code));
        const b = Buffer.from(`xx${code}yy`);
        const r = checkUpc(code);
        expect(await written((w) => upcJsonFast(w, b, 2, 2 + code.length))).toBe(jsonLine(code, r, false));
        expect(await written((w) => upcPlainFast(w, b, 2, 2 + code.length))).toBe(plainRow(code, r));
      }),
    );
    await fc.assert(
      fc.asyncProperty(isrcLike, async (code) => {
        const r = checkIsrc(code, { currentYear: YEAR });
        fc.pre(r.valid && r.problems.length === 0);
        const b = Buffer.from(code);
        expect(await written((w) => isrcJsonFast(w, b, 0, 12))).toBe(jsonLine(code, r, true));
        expect(await written((w) => isrcPlainFast(w, b, 0, 12))).toBe(plainRow(code, r));
      }),
    );
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
  await eachLine(Readable.from(pieces.map((p) => (typeof p === 'string' ? Buffer.from(p) : p))), 'test', (b, s, e) => out.push(b.toString('utf8', s, e)), () => {
    chunks++;
    return undefined;
  });
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
