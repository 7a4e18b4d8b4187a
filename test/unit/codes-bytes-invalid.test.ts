// The byte-level diagnosis of invalid lines must say exactly what the engine and diagnoseDamage
// say, or leave the line to them (false).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  ByteDiagnosis,
  checkIsrc,
  checkUpc,
  diagnoseDamage,
  diagnoseIsrcBytes,
  diagnoseUpcBytes,
  problemOfSpec,
  upcCheckDigit,
} from '../../src/codes/index.js';

const YEAR = 2026;
const options = { currentYear: YEAR };

function engine(kind: 'upc' | 'isrc', input: string) {
  const v = kind === 'upc' ? checkUpc(input) : checkIsrc(input, options);
  if (v.valid) return { valid: true, problems: v.problems, repaired: null };
  const d = diagnoseDamage(input, kind, options);
  return d ? { valid: false, problems: d.problems, repaired: d.repaired } : { valid: false, problems: v.problems, repaired: null };
}

function bytes(kind: 'upc' | 'isrc', input: string) {
  const b = Buffer.from(input);
  const out = new ByteDiagnosis();
  const known = kind === 'upc' ? diagnoseUpcBytes(b, 0, b.length, out) : diagnoseIsrcBytes(b, 0, b.length, out);
  if (!known) return undefined;
  return {
    valid: false,
    problems: Array.from(out.specs.subarray(0, out.count), (s) => problemOfSpec(s, input)),
    repaired: out.repairedLength === 0 ? null : Buffer.from(out.repaired.subarray(0, out.repairedLength)).toString('latin1'),
  };
}

const digit = fc.integer({ min: 0, max: 9 }).map(String);
const digits = (min: number, max: number) => fc.array(digit, { minLength: min, maxLength: max }).map((a) => a.join(''));
const validUpc = fc.oneof(digits(11, 11), digits(12, 12)).map((d) => d + upcCheckDigit(d));
const isrc = fc.stringMatching(/^[A-Z]{2}[A-Z0-9]{3}[0-9]{7}$/);
const charFrom = (chars: string) => fc.constantFrom(...chars.split(''));
const mutate = (base: fc.Arbitrary<string>, alphabet: string) =>
  fc.tuple(base, fc.nat(20), charFrom(alphabet), fc.constantFrom('replace', 'insert', 'delete')).map(([s, at, c, how]) => {
    const i = at % (s.length + 1);
    return how === 'replace' ? s.slice(0, i) + c + s.slice(i + 1) : how === 'insert' ? s.slice(0, i) + c + s.slice(i) : s.slice(0, i) + s.slice(i + 1);
  });
const damaged = (base: fc.Arbitrary<string>) =>
  fc.oneof(
    base.map((c) => `"${c}"`),
    base.map((c) => `'${c}`),
    base.map((c) => `'${c}'`),
    base.map((c) => `"${c}'`),
    base.map((c) => `${String(Number(c))}.0`),
    base.map((c) => `"${String(Number(c))}.00"`),
    base.map((c) => `${c[0]}.${c.slice(1, 6)}E+11`),
    base.map((c) => c.replace(/^0/, '')),
    base.map((c) => c.replace(/^0+/, '')),
    // Excel's text formula, bare and with its CSV quoting; odd spaces copied from a web page.
    base.map((c) => `="${c}"`),
    base.map((c) => `= "${c}"`),
    base.map((c) => `="${String(Number(c))}.0"`),
    base.map((c) => `"=""${c}"""`),
    base.map((c) => `="${c}`),
    base.map((c) => `${c}\u00a0`),
    base.map((c) => `${c.slice(0, 4)}\u00a0${c.slice(4)}`),
    base.map((c) => `\u202f${c.slice(0, 4)}\u2009${c.slice(4)}`),
    base.map((c) => `${c.slice(0, 4)}\u00a0${c.slice(5)}`),
    base.map((c) => `"${c}"\u00a0`),
    // Odd spaces with other separators, lowercase, and a space left at an end once they are gone.
    base.map((c) => `${c.slice(0, 2).toLowerCase()}-${c.slice(2, 5)} ${c.slice(5)}\u2009`),
    base.map((c) => `\u3000${c.slice(0, 3)}\u00a0\u00a0${c.slice(3)}`),
    base.map((c) => ` \u00a0${c}`),
    base.map((c) => `${c}\u205f `),
  );

describe('byte diagnosis of invalid lines', () => {
  for (const kind of ['upc', 'isrc'] as const) {
    it(`${kind}: the engine's problems and repair, or left to the engine`, () => {
      const base = kind === 'upc' ? validUpc : isrc;
      const line = fc.oneof(
        base,
        mutate(base, kind === 'upc' ? '0123456789OIlSB.,E+-/ "\'=' : 'ABCXYZ0189abc-/ _."\'='),
        mutate(mutate(base, '0123456789OABZ/-'), '0123456789O/'),
        damaged(base),
        damaged(mutate(base, '0123456789O')),
        fc.string({ maxLength: 20 }),
        fc.stringMatching(/^[0-9A-Za-z"'. ,+\-/]{1,20}$/),
      );
      let known = 0;
      fc.assert(
        fc.property(line, (input) => {
          if (input.trim() === '') return;
          const fast = bytes(kind, input);
          if (fast === undefined) return;
          known++;
          expect(fast).toEqual(engine(kind, input));
        }),
        { numRuns: 3000 },
      );
      expect(known).toBeGreaterThan(1000);
    });
  }

  it('leaves valid codes and non-ASCII to the engine', () => {
    const out = new ByteDiagnosis();
    for (const [kind, input] of [
      ['upc', '036000241457'],
      ['isrc', 'USRC17607839'],
      ['isrc', '"USRC17607839"'.slice(1, -1)],
      ['upc', '０３６'],
    ] as const) {
      const b = Buffer.from(input);
      expect(kind === 'upc' ? diagnoseUpcBytes(b, 0, b.length, out) : diagnoseIsrcBytes(b, 0, b.length, out)).toBe(false);
    }
  });
});
