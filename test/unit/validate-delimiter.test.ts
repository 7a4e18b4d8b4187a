// The separator of a table, found from its first lines (csv-input.ts, delimiterOf).
import { describe, expect, it } from 'vitest';
import { delimiterOf } from '../../src/cli/commands/validate/csv-input.js';

const of = (text: string, how: 'csv' | 'sniff' = 'csv') => delimiterOf(Buffer.from(text), how);

describe('delimiterOf', () => {
  it('a comma, a semicolon, or (for a file read as a table by --column) a tab', () => {
    expect(of('Title,UPC\nA,036000241457\n')).toBe(',');
    expect(of('Titel;UPC;Preis\n"Lied; eins";036000241457;9,99\n')).toBe(';');
    expect(of('Title\tUPC\nA\t036000241457\n', 'sniff')).toBe('\t');
    expect(of('Title\tUPC\n', 'csv')).toBe(',');
    expect(delimiterOf(Buffer.from('x'), '\t')).toBe('\t');
  });

  it('the one on every line as often, not a decimal comma or a stray semicolon', () => {
    expect(of('036000241457;9,99\n036000241458;12,50\n')).toBe(';');
    expect(of('036000241457;9,99;1,5\n036000241458;12,50;2\n')).toBe(';');
    expect(of('a,b;c\n1,036000241457\n')).toBe(',');
    expect(of('"a;b";"c;d",036000241457\n"x",036000241458\n')).toBe(',');
  });

  it('a comma when nothing tells', () => {
    expect(of('036000241457\n')).toBe(',');
    expect(of('')).toBe(',');
    expect(of('a;b,c')).toBe(',');
  });
});
