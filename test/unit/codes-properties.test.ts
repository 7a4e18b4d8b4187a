// Property-based tests of the code engine (fast-check), plus the API details the vectors do not reach.
import fc from 'fast-check';
import countries from 'i18n-iso-countries';
import { describe, expect, it } from 'vitest';
import { agencyPrefixes, checkIsrc, checkUpc, isrcFullYear, iso3166Codes, sameUpc, toGtin14, upcCheckDigit } from '../../src/codes/index.js';

const YEAR = { currentYear: 2026 };
const digit = fc.integer({ min: 0, max: 9 }).map(String);
const upper = fc.integer({ min: 65, max: 90 }).map((c) => String.fromCharCode(c));
const digitsOf = (n: number) => fc.array(digit, { minLength: n, maxLength: n }).map((a) => a.join(''));

/** A valid release code: 12 or 13 digits, or 14 with a leading zero, with its check digit. */
const validUpc = fc
  .oneof(
    digitsOf(11),
    digitsOf(12),
    digitsOf(12).map((d) => `0${d}`),
  )
  .map((data) => data + upcCheckDigit(data));

const validIsrc = fc
  .tuple(fc.constantFrom(...iso3166Codes(), ...agencyPrefixes()), fc.array(fc.oneof(upper, digit), { minLength: 3, maxLength: 3 }), digitsOf(2), digitsOf(5))
  .map(([cc, reg, yy, nnnnn]) => cc + reg.join('') + yy + nnnnn);

/** Adds the separators a person might type: spaces and hyphens anywhere, lowercase letters. */
function sloppy(code: string, seed: number[]): string {
  let out = '';
  for (let i = 0; i < code.length; i++) {
    const r = seed[i % seed.length]!;
    out += r % 5 === 0 ? '-' : r % 7 === 0 ? ' ' : '';
    out += r % 2 === 0 ? code[i]!.toLowerCase() : code[i]!;
  }
  return out;
}

describe('UPC properties', () => {
  it('every generated valid code passes, as UPC-A, EAN-13 or GTIN-14', () => {
    fc.assert(
      fc.property(validUpc, (code) => {
        const r = checkUpc(code);
        expect(r.valid).toBe(true);
        expect(r.normalized).toBe(code);
        expect(r.kind).toBe({ 12: 'upc-a', 13: 'ean-13', 14: 'gtin-14' }[code.length]);
        expect(r.gtin14).toBe(code.padStart(14, '0'));
      }),
    );
  });

  it('every single-digit change of a valid code fails, naming the check digit it should have', () => {
    fc.assert(
      fc.property(validUpc, fc.nat(), fc.integer({ min: 1, max: 9 }), (code, at, delta) => {
        const i = at % code.length;
        const changed = code.slice(0, i) + ((Number(code[i]) + delta) % 10) + code.slice(i + 1);
        const r = checkUpc(changed);
        expect(r.valid).toBe(false);
        // A 14-digit code whose first digit changed is refused for that digit before the checksum.
        const codes = r.problems.map((p) => p.code);
        if (code.length === 14 && i === 0) expect(codes).toEqual(['gtin14_indicator']);
        else {
          expect(codes).toEqual(['bad_check_digit']);
          expect(r.problems[0]!.expected).toBe(String(upcCheckDigit(changed.slice(0, -1))));
          expect(r.problems[0]!.position).toBe(changed.length);
        }
      }),
    );
  });

  it('normalization is idempotent, and spaces and hyphens do not change the verdict', () => {
    fc.assert(
      fc.property(fc.oneof(validUpc, fc.string({ maxLength: 20 }), fc.stringMatching(/^[0-9 -]{0,18}$/)), (input) => {
        const r = checkUpc(input);
        if (r.normalized !== null) {
          const again = checkUpc(r.normalized);
          expect(again.normalized).toBe(r.normalized);
          expect(again.valid).toBe(true);
        }
        const spaced = input.split('').join(' ');
        expect(checkUpc(spaced).valid).toBe(r.valid);
      }),
    );
  });

  it('anything but ASCII digits, spaces and hyphens is refused, with a position inside the input', () => {
    fc.assert(
      fc.property(validUpc, fc.nat(), fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }), (code, at, ch) => {
        fc.pre(!/^[0-9 -]$/.test(ch));
        const i = at % (code.length + 1);
        const input = code.slice(0, i) + ch + code.slice(i);
        const r = checkUpc(input);
        expect(r.valid).toBe(false);
        expect(r.problems[0]!.position).toBe([...code.slice(0, i)].length + 1);
      }),
    );
  });

  it('compares codes as GTIN-14', () => {
    expect(sameUpc('012345678905', '0012345678905')).toBe(true);
    expect(sameUpc('012345678905', '00012345678905')).toBe(true);
    expect(sameUpc('0-12345-67890-5', '0012345678905')).toBe(true);
    expect(sameUpc('012345678905', '012345678900')).toBe(false);
    expect(sameUpc('012345678900', '012345678900')).toBe(false);
    expect(toGtin14('036000241457')).toBe('00036000241457');
    expect(toGtin14('036000241456')).toBeNull();
  });

  it('computes check digits with weights 3,1,3… from the right', () => {
    expect(upcCheckDigit('03600024145')).toBe(7);
    expect(upcCheckDigit('629104150021')).toBe(3);
    expect(upcCheckDigit('')).toBe(0);
    expect(() => upcCheckDigit('12a')).toThrow(RangeError);
  });

  it('explains a lost leading zero, an EAN-8 and an all-zero placeholder', () => {
    expect(checkUpc('12345678905').problems[0]!.message).toMatch(/leading zero/);
    expect(checkUpc('73513537').problems[0]!.code).toBe('ean8_not_release_code');
    const zeros = checkUpc('000000000000');
    expect(zeros.valid).toBe(true);
    expect(zeros.problems.map((p) => [p.code, p.severity])).toEqual([['all_zeros', 'warning']]);
  });
});

describe('ISRC properties', () => {
  it('every generated valid code passes, with its parts and display form', () => {
    fc.assert(
      fc.property(validIsrc, (code) => {
        const r = checkIsrc(code, YEAR);
        expect(r.valid).toBe(true);
        expect(r.normalized).toBe(code);
        expect(r.display!.replaceAll('-', '')).toBe(code);
        expect(r.parts!.country + r.parts!.registrant + r.parts!.year + r.parts!.designation).toBe(code);
        expect(r.problems.every((p) => p.severity === 'warning')).toBe(true);
        expect(r.problems.some((p) => p.code === 'unknown_prefix')).toBe(false);
      }),
    );
  });

  it('lowercase, spaces, hyphens and a leading "ISRC" give the same code', () => {
    fc.assert(
      fc.property(validIsrc, fc.array(fc.nat(), { minLength: 1, maxLength: 12 }), fc.boolean(), (code, seed, prefix) => {
        const input = (prefix ? 'isrc ' : '') + sloppy(code, seed);
        const r = checkIsrc(input, YEAR);
        expect(r.normalized).toBe(code);
      }),
    );
  });

  it('normalization is idempotent', () => {
    fc.assert(
      fc.property(fc.oneof(validIsrc, fc.string({ maxLength: 20 }), fc.stringMatching(/^[A-Za-z0-9 -]{0,18}$/)), (input) => {
        const r = checkIsrc(input, YEAR);
        if (r.normalized !== null) {
          expect(checkIsrc(r.normalized, YEAR).normalized).toBe(r.normalized);
          expect(checkIsrc(r.display!, YEAR).normalized).toBe(r.normalized);
        }
      }),
    );
  });

  it('never accepts a non-ASCII character, whatever toUpperCase or NFKC would make of it', () => {
    fc.assert(
      fc.property(validIsrc, fc.nat(), fc.integer({ min: 0x80, max: 0x10ffff }), (code, at, cp) => {
        fc.pre(cp < 0xd800 || cp > 0xdfff);
        const i = at % 12;
        const r = checkIsrc(code.slice(0, i) + String.fromCodePoint(cp) + code.slice(i + 1), YEAR);
        expect(r.valid).toBe(false);
        expect(r.problems[0]!.position).toBe(i + 1);
      }),
    );
  });

  it('keeps an IS-RC… code whole, and drops "ISRC" only as a prefix', () => {
    expect(checkIsrc('ISRC11234567', YEAR).display).toBe('IS-RC1-12-34567');
    expect(checkIsrc('ISRC IS-RC1-12-34567', YEAR).display).toBe('IS-RC1-12-34567');
  });

  it('warns about an unknown prefix and a future year, without refusing the code', () => {
    const r = checkIsrc('XX-ABC-27-00001', YEAR);
    expect(r.valid).toBe(true);
    expect(r.prefixKind).toBe('unknown');
    expect(r.problems.map((p) => [p.code, p.severity, p.position])).toEqual([
      ['unknown_prefix', 'warning', 1],
      ['future_year', 'warning', 8],
    ]);
    expect(checkIsrc('GXABC2600001', YEAR).prefixKind).toBe('agency');
    expect(checkIsrc('GXABC2600001', YEAR).problems).toEqual([]);
  });

  it('reads two-digit years up to ten years ahead as this century', () => {
    expect(isrcFullYear(26, 2026)).toBe(2026);
    expect(isrcFullYear(36, 2026)).toBe(2036);
    expect(isrcFullYear(37, 2026)).toBe(1937);
    expect(isrcFullYear(86, 2026)).toBe(1986);
    expect(isrcFullYear(3, 2095)).toBe(2103);
    expect(isrcFullYear(96, 2095)).toBe(2096);
  });

  it('points at the part in the wrong shape, in input positions', () => {
    const r = checkIsrc('US-RC1-76-0783X', YEAR);
    expect(r.problems.map((p) => [p.code, p.position, p.expected])).toEqual([['bad_format', 15, 'digit']]);
    expect(r.problems[0]!.message).toMatch(/designation/);
  });
});

describe('ISO 3166 data', () => {
  it('matches the i18n-iso-countries list, less the user-assigned XK', () => {
    const theirs = Object.keys(countries.getAlpha2Codes())
      .filter((c) => c !== 'XK')
      .sort();
    expect([...iso3166Codes()].sort()).toEqual(theirs);
    expect(iso3166Codes().size).toBe(249);
  });
});
