// The pure parts of `release import`: headers read as a person reads them, the header row found
// under a template's preamble, the template told by its own headers, and cells read as release
// file values (codes with validate's damage names, dates in a template's order or as day numbers).
import { describe, expect, it } from 'vitest';
import { headerKey } from '../../src/cli/import/columns.js';
import { readDate, readExplicit, readIsrc, readLanguage, readPriceTier, readUpc, serialDate } from '../../src/cli/import/cells.js';
import { parsePositions } from '../../src/cli/import/contributor-sheet.js';
import { parseParticipants } from '../../src/cli/import/credits.js';
import { detectTemplate, findLayout } from '../../src/cli/import/find-header.js';
import { sniffDelimiter, type Sheet } from '../../src/cli/import/read-rows.js';

const sheet = (rows: (string | number | undefined)[][]): Sheet => ({ name: undefined, rows, lines: rows.map((_, i) => i + 1), date1904: false });

describe('headers', () => {
  it('reads case, spacing, punctuation, ℗/© and # alike', () => {
    expect(headerKey('Track No.')).toBe(headerKey('track  #'));
    expect(headerKey('TRACK_NUMBER')).toBe(headerKey('Track no'));
    expect(headerKey('℗ line')).toBe(headerKey('P-Line'));
    expect(headerKey('(C) Line')).toBe(headerKey('c line'));
    expect(headerKey('Catalogue Number')).toBe(headerKey('catalog no.'));
  });

  it('finds the header under a preamble and merged group headers, and names the columns it does not map', () => {
    const layout = findLayout(
      [
        sheet([
          ['Our catalog'],
          ['Release', undefined, 'Track'],
          ['ALBUM TITLE', 'Barcode', 'Song Title', 'Track #', 'Catalogue no.', 'Mood', undefined],
          ['A', '036000241457', 'x', 1, 'C-1', 'calm', 'stray'],
        ]),
      ],
      undefined,
    );
    expect(layout?.headerRow).toBe(2);
    expect(layout?.template.id).toBe('generic');
    expect([...layout!.fields].map(([f, c]) => [f, c.letter])).toEqual([
      ['release_title', 'A'],
      ['upc', 'B'],
      ['track_title', 'C'],
      ['track_number', 'D'],
      ['catalog_number', 'E'],
    ]);
    expect(layout?.unmapped.map((u) => [u.letter, u.header, u.reason])).toEqual([
      ['F', 'Mood', 'no field of a release file'],
      ['G', '', 'no header'],
    ]);
  });

  it('tells a template by its own headers, whatever their order', () => {
    expect(detectTemplate(['Track Title', 'Digital Release Date (MM/DD/YYYY)', 'Release Main Artist', 'Release Format', 'UPC/EAN']).id).toBe('believe');
    expect(detectTemplate(['Participants', 'Product Code', 'Product Artist', 'Product Version', 'Track Title']).id).toBe('umw');
    expect(detectTemplate(['Release title', 'UPC', 'Track title']).id).toBe('generic');
  });
});

describe('cells', () => {
  it("codes: valid, repaired with validate's damage names, or refused", () => {
    expect(readUpc('="036000241457"')).toEqual({ ok: true, value: '036000241457' });
    const zero = readUpc(36000241457);
    expect(zero).toMatchObject({ ok: true, value: '036000241457', repaired: { code: 'lost_leading_zero' } });
    expect(readUpc('3.6E+11')).toMatchObject({ ok: false, problem: { code: 'scientific_notation' } });
    expect(readUpc(3.6e11)).toMatchObject({ ok: false, problem: { code: 'scientific_notation' } });
    expect(readUpc('036000241458')).toMatchObject({ ok: false, problem: { code: 'bad_check_digit' } });
    expect(readIsrc('gb-nlr-26-00001', 2026)).toEqual({ ok: true, value: 'GBNLR2600001' });
    expect(readIsrc('"GBNLR2600001"', 2026)).toMatchObject({ ok: true, value: 'GBNLR2600001', repaired: { code: 'quoted' } });
    expect(readIsrc('GBNLR26000', 2026)).toMatchObject({ ok: false, problem: { code: 'bad_length' } });
  });

  it("dates: ISO, the template's order, day numbers (1900 and 1904), ambiguity refused", () => {
    expect(readDate('2030-03-06', 'auto', false)).toEqual({ ok: true, value: '2030-03-06' });
    expect(readDate('03/06/2030', 'mdy', false)).toEqual({ ok: true, value: '2030-03-06' });
    expect(readDate('03/06/2030', 'dmy', false)).toEqual({ ok: true, value: '2030-06-03' });
    expect(readDate('13/06/2030', 'auto', false)).toEqual({ ok: true, value: '2030-06-13' });
    expect(readDate('03/06/2030', 'auto', false)).toMatchObject({ ok: false, problem: { code: 'ambiguous_date' } });
    expect(readDate('02/30/2030', 'mdy', false)).toMatchObject({ ok: false, problem: { code: 'bad_date' } });
    expect(readDate(47183, 'mdy', false)).toEqual({ ok: true, value: '2029-03-06' });
    expect(readDate('47183', 'auto', false)).toMatchObject({ ok: true, value: '2029-03-06', repaired: { code: 'serial_date' } });
    expect(serialDate(45721, false)).toBe('2025-03-05');
    expect(serialDate(45721, true)).toBe('2029-03-06');
    expect(serialDate(61, false)).toBe('1900-03-01');
  });

  it('explicit, price tiers and languages as templates write them', () => {
    expect(readExplicit('Yes')).toEqual({ ok: true, value: 'explicit' });
    expect(readExplicit('')).toEqual({ ok: true, value: 'not_explicit' });
    expect(readExplicit('Cleaned')).toEqual({ ok: true, value: 'clean' });
    expect(readExplicit('maybe')).toMatchObject({ ok: false });
    expect(readPriceTier('Front Line')).toEqual({ ok: true, value: 'front' });
    expect(readPriceTier('Mid-Price')).toEqual({ ok: true, value: 'mid' });
    expect(readLanguage('English')).toEqual({ ok: true, value: 'en' });
    expect(readLanguage('français')).toEqual({ ok: true, value: 'fr' });
    expect(readLanguage('pt-BR')).toEqual({ ok: true, value: 'pt' });
    expect(readLanguage('Instrumental', { instrumental: true })).toEqual({ ok: true, value: 'instrumental' });
    expect(readLanguage('Klingon')).toMatchObject({ ok: false });
  });

  it('participants and positions', () => {
    expect(parseParticipants('primary:Nina Vale; Featured Artist:Ava;Mastering Engineer:Bo')).toEqual({
      credits: [
        { kind: 'artist', credit: { name: 'Nina Vale', role: 'primary' } },
        { kind: 'artist', credit: { name: 'Ava', role: 'featuring' } },
        { kind: 'contributor', credit: { name: 'Bo', role: 'mastering_engineer' } },
      ],
    });
    expect(parseParticipants('Nina Vale')).toEqual({ bad: '"Nina Vale" is not role:Name' });
    expect(parsePositions('1, 3-5')).toEqual([1, 3, 4, 5]);
    expect(parsePositions('All')).toBe('all');
    expect(parsePositions('one')).toBeUndefined();
  });
});

describe('the separator of a CSV', () => {
  it('is the one the header has most of, not a preamble line', () => {
    expect(sniffDelimiter('Template v2; fill in one row per track\n"a, b"\nRelease title,UPC,Track title,ISRC\nx,1,y,z\n')).toBe(',');
    expect(sniffDelimiter('Release title;UPC;Track title;Price\nx;1;y;9,99\n')).toBe(';');
    expect(sniffDelimiter('Release title\tUPC\tTrack title\nx\t1\ty\n')).toBe('\t');
  });
});
