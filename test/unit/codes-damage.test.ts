// Spreadsheet damage named with the repaired code, and GS1 prefixes that cannot be a release.
import { describe, expect, it } from 'vitest';
import { checkUpc, diagnoseDamage, releasePrefixProblem, plainValidUpcLength } from '../../src/codes/index.js';

const opts = { currentYear: 2026 };
const upc = (s: string) => diagnoseDamage(s, 'upc', opts);
const codes = (s: string, kind: 'upc' | 'isrc' = 'upc') => diagnoseDamage(s, kind, opts)?.problems.map((p) => p.code);

describe('diagnoseDamage', () => {
  it('scientific notation: digits lost, named, never guessed', () => {
    for (const s of ['3.6E+11', '3,60000E+11', '6.01234E+12', '1E+12']) {
      expect(upc(s)).toEqual({ problems: [expect.objectContaining({ code: 'scientific_notation', severity: 'error' })], repaired: null, fixed: null });
    }
  });

  it('a trailing .0 is undone', () => {
    expect(upc('036000241457.0')).toMatchObject({ problems: [{ code: 'decimal_suffix' }], repaired: '036000241457' });
    expect(upc('036000241457,00')?.repaired).toBe('036000241457');
  });

  it('surrounding quotes and the apostrophe text marker are undone, for ISRCs too', () => {
    expect(upc('"036000241457"')).toMatchObject({ problems: [{ code: 'quoted' }], repaired: '036000241457' });
    expect(upc("'036000241457")).toMatchObject({ problems: [{ code: 'quoted' }], repaired: '036000241457' });
    expect(diagnoseDamage("'USRC17607839", 'isrc', opts)).toMatchObject({ problems: [{ code: 'quoted' }], repaired: 'USRC17607839' });
  });

  it('thousands separators are undone', () => {
    expect(upc('36,000,241,457')).toMatchObject({ repaired: '036000241457' });
    expect(codes('36,000,241,457')).toEqual(['thousands_separator', 'lost_leading_zero']);
    expect(upc('4.006.381.333.931')?.repaired).toBe('4006381333931');
  });

  it('a lost leading zero is restored only when the check digit then holds', () => {
    expect(upc('36000241457')).toMatchObject({ problems: [{ code: 'lost_leading_zero' }], repaired: '036000241457' });
    // Two zeros lost from an EAN-13 written as 00…: the same product as the UPC-A.
    expect(upc('1234567895')?.repaired).toBe('001234567895');
    expect(upc('36000241458')).toBeUndefined();
  });

  it('combined damage: the steps in order, then what is still wrong', () => {
    expect(upc('"36000241457.0"')).toMatchObject({ repaired: '036000241457' });
    expect(codes('"36000241457.0"')).toEqual(['quoted', 'decimal_suffix', 'lost_leading_zero']);
    const stillBad = upc("'036000241458");
    expect(stillBad?.repaired).toBeNull();
    expect(stillBad?.problems.map((p) => p.code)).toEqual(['quoted', 'bad_check_digit']);
  });

  it('Excel\'s text formula ="…" (and its CSV-quoted form) is read as the code inside, named text_formula', () => {
    for (const s of ['="036000241457"', '= "036000241457"', '"=""036000241457"""', ' ="036000241457" ']) {
      expect(upc(s)).toEqual({
        problems: [expect.objectContaining({ code: 'text_formula', severity: 'error' })],
        repaired: '036000241457',
        fixed: '036000241457',
      });
    }
    expect(upc('"=""036000241457"""')?.problems[0]?.message).toMatch(/CSV-quoted as "=""…"""/);
    // The code inside is checked: its own problems follow, and the fixed code is shown invalid.
    expect(upc('="036000241456"')).toMatchObject({ repaired: null, fixed: '036000241456' });
    expect(codes('="036000241456"')).toEqual(['text_formula', 'bad_check_digit']);
    expect(codes('="36000241457.0"')).toEqual(['text_formula', 'decimal_suffix', 'lost_leading_zero']);
    expect(diagnoseDamage('="USRC17607839"', 'isrc', opts)).toMatchObject({ problems: [{ code: 'text_formula' }], repaired: 'USRC17607839' });
    // Never two bad characters.
    expect(codes('="036000241457"')).not.toContain('bad_character');
  });

  it('non-ASCII spaces (no-break, narrow, zero-width) are named where they are and dropped', () => {
    const d = upc('036000\u00a0241457\u202f');
    expect(d).toMatchObject({ repaired: '036000241457', fixed: '036000241457' });
    expect(d?.problems.map((p) => [p.code, p.position])).toEqual([
      ['non_ascii_space', 7],
      ['non_ascii_space', 14],
    ]);
    expect(codes('\u200b"036000241457"')).toEqual(['non_ascii_space', 'quoted']);
    expect(diagnoseDamage('USRC\u00a017607839', 'isrc', opts)).toMatchObject({ repaired: 'USRC17607839' });
    expect(upc('036000\u00a0241458')).toMatchObject({ repaired: null, fixed: '036000241458' });
  });

  it('the fixed code: the repair when valid, else what is left once the damage is undone', () => {
    expect(upc('"036000241457"')?.fixed).toBe('036000241457');
    expect(upc("'036000241458")?.fixed).toBe('036000241458');
  });

  it('nothing recognised: undefined', () => {
    expect(upc('036000241458')).toBeUndefined();
    expect(upc('abc')).toBeUndefined();
    expect(diagnoseDamage('US-RC1-76-0783', 'isrc', opts)).toBeUndefined();
  });
});

describe('GS1 prefixes that cannot be a music release', () => {
  const cases: [string, RegExp][] = [
    ['9780306406157', /978: an ISBN/],
    ['9790001000000', /979: an ISBN \(a book or printed music\)/],
    ['9771234567003', /977: an ISSN/],
    ['9812345678902', /98: a coupon/],
    ['2012345678903', /20: restricted circulation/],
    ['0212345678909', /02: restricted circulation/],
    ['212345678909', /02: restricted circulation/],
    ['412345678903', /04: restricted circulation/],
    ['00412345678903', /04: restricted circulation/],
  ];
  it.each(cases)('%s: a warning with the reason, still valid, and off the fast path', (code, why) => {
    const r = checkUpc(code);
    expect(r.valid).toBe(true);
    expect(r.problems).toEqual([expect.objectContaining({ code: 'not_release_prefix', severity: 'warning', message: expect.stringMatching(why) })]);
    expect(plainValidUpcLength(Buffer.from(code), 0, code.length)).toBe(0);
  });

  it('ordinary prefixes: no warning, fast path', () => {
    for (const code of ['036000241457', '4006381333931', '00036000241457', '5012345678900', '9501101530003']) {
      expect(releasePrefixProblem(code)).toBeUndefined();
      expect(checkUpc(code).problems).toEqual([]);
      expect(plainValidUpcLength(Buffer.from(code), 0, code.length)).toBe(code.length);
    }
  });
});
