// Every vector from the shared code test data (copied to test/fixtures/codes, see its README).
// Where our policy (the domain rules) gives another verdict than the vector's source, the row is
// listed below with the reason; every other row must match the vector exactly.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { checkIsrc, checkUpc } from '../../src/codes/index.js';

interface Vector {
  line: number;
  input: string;
  valid: boolean;
  note: string;
}

function load(name: string): Vector[] {
  const text = readFileSync(new URL(`../fixtures/codes/${name}`, import.meta.url), 'utf8');
  const rows = text.split('\n');
  const out: Vector[] = [];
  for (let i = 1; i < rows.length; i++) {
    const row = rows[i]!;
    if (row === '') continue;
    const [input, valid, , note] = row.split('\t');
    if (valid !== 'true' && valid !== 'false') throw new Error(`${name}:${i + 1}: bad valid column`);
    out.push({ line: i + 1, input: input!, valid: valid === 'true', note: note ?? '' });
  }
  return out;
}

// Fixed so that the future-year warning does not depend on the clock.
const CURRENT_YEAR = 2026;

/** UPC rows where our verdict differs from the vector's, with why. */
const UPC_OURS: Record<string, { valid: boolean; why: string }> = {
  '73513537': { valid: false, why: 'policy:ean8: EAN-8 is not a release code' },
  '96385074': { valid: false, why: 'policy:ean8' },
  '55123457': { valid: false, why: 'policy:ean8' },
  '12341238': { valid: false, why: 'policy:ean8' },
  '00000000': { valid: false, why: 'policy:ean8 (all zeros alone would only be a warning)' },
  '98412345678908': { valid: false, why: 'policy:gtin14: 14 digits only with a leading zero' },
  '38425876095074': { valid: false, why: 'policy:gtin14' },
  '58425876097843': { valid: false, why: 'policy:gtin14' },
  '98456789014533': { valid: false, why: 'policy:gtin14' },
  '10012345678902': { valid: false, why: 'policy:gtin14' },
  '20012345678909': { valid: false, why: 'policy:gtin14' },
  '12341234123413': { valid: false, why: 'policy:gtin14' },
  '09780072129519': { valid: true, why: 'policy:gtin14: a leading zero makes a 14-digit code acceptable (EAN-13 routine rejects any 14)' },
  '00095673400332': { valid: true, why: 'policy:gtin14' },
  '012345678905 ': { valid: true, why: 'policy:whitespace: spaces are removed wherever they are' },
  ' 012345678905': { valid: true, why: 'policy:whitespace' },
  '0 12345 67890 5': { valid: true, why: 'policy:separators: spaces are removed' },
  '0-12345-67890-5': { valid: true, why: 'policy:separators: hyphens are removed' },
  '-012345678905': { valid: true, why: 'policy:separators: hyphens are removed wherever they are' },
};

/** ISRC rows where our verdict differs from the vector's, with why. */
const ISRC_OURS: Record<string, { valid: boolean; why: string }> = {
  'XX-SKG-19-12345': { valid: true, why: 'policy:country: an unknown prefix is a warning, not an error' },
  QX1234567890: { valid: true, why: 'policy:country (warning)' },
  'ZY-XWV-76-54321': { valid: true, why: 'policy:country (warning)' },
  AAABC2300001: { valid: true, why: 'policy:country (warning)' },
  XSABC2300001: { valid: true, why: 'policy:country (warning)' },
  EUABC2300001: { valid: true, why: 'policy:country (warning)' },
  'US-CA29500702': { valid: true, why: 'policy:hyphen-placement: hyphens are removed wherever they are' },
  'ZZ-ZZZ-123-4567': { valid: true, why: 'policy:hyphen-placement' },
  'ZZ-ZZZ-1234567': { valid: true, why: 'policy:hyphen-placement' },
  'ZZZ-ZZ1-23-4567': { valid: true, why: 'policy:hyphen-placement' },
  'ZZ-ZZ-Z12-345-67': { valid: true, why: 'policy:hyphen-placement' },
  'USRC1-76-07839': { valid: true, why: 'policy:hyphen-placement' },
  'US-RC17607839': { valid: true, why: 'policy:hyphen-placement' },
  '--USRC17607839': { valid: true, why: 'policy:hyphen-placement' },
  'US--RC1-76-07839': { valid: true, why: 'policy:hyphen-placement' },
  ' ZZ-ZZZ-12-34567': { valid: true, why: 'policy:whitespace: spaces are removed' },
  'USRC17607839 ': { valid: true, why: 'policy:whitespace' },
  'US RC1 76 07839': { valid: true, why: 'policy:separators: spaces are removed' },
  'ISRC USRC17607839': { valid: true, why: 'policy:isrc-prefix: a leading "ISRC" is dropped' },
};

/** Rows about a character we refuse: the reason must name that kind of character. */
const UNICODE_REASON: Record<string, string> = {
  '978-90245᭓8270': 'non_ascii_digit',
  '978-9024538²70': 'non_ascii_digit',
  '978–0–471–11709–4': 'unicode_dash',
  '０１２３４５６７８９０５': 'non_ascii_digit',
  '٠١٢٣٤٥٦٧٨٩٠٥': 'non_ascii_digit',
  'ZZ–ZZZ-12-34567': 'unicode_dash',
  ıTABC2300001: 'lookalike_letter',
  uſrc17607839: 'lookalike_letter',
  ＵＳＲＣ１７６０７８３９: 'lookalike_letter',
  'US‐RC1‐76‐07839': 'unicode_dash',
};

function expectedFor(v: Vector, ours: Record<string, { valid: boolean; why: string }>): boolean {
  return ours[v.input]?.valid ?? v.valid;
}

describe('UPC vectors', () => {
  const vectors = load('upc_vectors.tsv');
  it('loads every row', () => expect(vectors.length).toBeGreaterThan(90));
  it.each(vectors.map((v) => [`line ${v.line}: ${JSON.stringify(v.input)}`, v] as const))('%s', (_name, v) => {
    const r = checkUpc(v.input);
    expect(r.valid, `${v.note} ${UPC_OURS[v.input]?.why ?? ''}`).toBe(expectedFor(v, UPC_OURS));
    if (r.valid) {
      expect(r.problems.filter((p) => p.severity === 'error')).toEqual([]);
      expect(r.gtin14).toMatch(/^0\d{13}$/);
    } else {
      expect(r.problems.length).toBeGreaterThan(0);
      expect(r.normalized).toBeNull();
    }
    const reason = UNICODE_REASON[v.input];
    if (reason) expect(r.problems.map((p) => p.code)).toContain(reason);
    if (/tags=[^;]*unicode/.test(v.note)) expect(r.valid).toBe(false);
  });
  it('every override differs from its vector and names an existing row', () => {
    for (const [input, o] of Object.entries(UPC_OURS)) {
      const v = vectors.find((x) => x.input === input);
      expect(v, input).toBeDefined();
      expect(o.valid, input).not.toBe(v!.valid);
    }
  });
});

describe('ISRC vectors', () => {
  const vectors = load('isrc_vectors.tsv');
  it('loads every row', () => expect(vectors.length).toBeGreaterThan(140));
  it.each(vectors.map((v) => [`line ${v.line}: ${JSON.stringify(v.input)}`, v] as const))('%s', (_name, v) => {
    const r = checkIsrc(v.input, { currentYear: CURRENT_YEAR });
    expect(r.valid, `${v.note} ${ISRC_OURS[v.input]?.why ?? ''}`).toBe(expectedFor(v, ISRC_OURS));
    if (r.valid) {
      expect(r.normalized).toMatch(/^[A-Z]{2}[A-Z0-9]{3}\d{7}$/);
      expect(r.display).toBe(`${r.normalized!.slice(0, 2)}-${r.normalized!.slice(2, 5)}-${r.normalized!.slice(5, 7)}-${r.normalized!.slice(7)}`);
    } else {
      expect(r.problems.some((p) => p.severity === 'error')).toBe(true);
    }
    // A prefix the vector's source refused for being unknown is valid for us, with a warning.
    if (/policy:country/.test(v.note) && !v.valid) {
      expect(r.problems.map((p) => p.code)).toContain('unknown_prefix');
    }
    const reason = UNICODE_REASON[v.input];
    if (reason) expect(r.problems.map((p) => p.code)).toContain(reason);
    if (/tags=[^;]*unicode/.test(v.note)) expect(r.valid).toBe(false);
  });
  it('every override differs from its vector and names an existing row', () => {
    for (const [input, o] of Object.entries(ISRC_OURS)) {
      const v = vectors.find((x) => x.input === input);
      expect(v, input).toBeDefined();
      expect(o.valid, input).not.toBe(v!.valid);
    }
  });
});
