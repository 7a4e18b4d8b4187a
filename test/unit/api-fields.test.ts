import { describe, expect, it } from 'vitest';
import { buildFields, parseHeader, parseKey, toQuery, typedValue } from '../../src/cli/commands/api/fields.js';

const raw = (text: string) => ({ kind: 'raw' as const, text });
const typed = (text: string) => ({ kind: 'typed' as const, text });

describe('api fields', () => {
  it('-f keeps strings, -F types true/false/null and numbers', () => {
    expect(buildFields([raw('a=1'), raw('b=true'), typed('c=1'), typed('d=true'), typed('e=null'), typed('f=-2.5'), typed('g=01'), typed('h=x')])).toEqual({
      a: '1',
      b: 'true',
      c: 1,
      d: true,
      e: null,
      f: -2.5,
      g: '01',
      h: 'x',
    });
  });

  it('keeps everything after the first = in the value', () => {
    expect(buildFields([raw('q=a=b')])).toEqual({ q: 'a=b' });
    expect(buildFields([raw('empty=')])).toEqual({ empty: '' });
  });

  it('nests with brackets: objects, indexes and appends', () => {
    expect(
      buildFields([
        typed('artists[0][id]=3'),
        raw('artists[0][role]=primary'),
        typed('artists[1][id]=4'),
        raw('genres[]=rock'),
        raw('genres[]=pop'),
        raw('meta[label]=X'),
      ]),
    ).toEqual({ artists: [{ id: 3, role: 'primary' }, { id: 4 }], genres: ['rock', 'pop'], meta: { label: 'X' } });
  });

  it('reads @file through the reader given', () => {
    expect(typedValue('@notes.txt', (p) => `contents of ${p}`)).toBe('contents of notes.txt');
  });

  it('names the flag and key of a malformed field', () => {
    expect(() => buildFields([raw('novalue')])).toThrow('-f novalue: expected key=value');
    expect(() => buildFields([typed('=x')])).toThrow(/-F =x/);
    expect(() => parseKey('a[b', '-f')).toThrow(/-f a\[b/);
    expect(() => buildFields([raw('a=1'), raw('a[]=2')])).toThrow(/already holds a value, not a list/);
    expect(() => buildFields([raw('a[5]=1')])).toThrow(/index 5/);
  });

  it('parses headers and refuses a token passed as a flag', () => {
    expect(parseHeader('X-Trace:  abc ')).toEqual(['X-Trace', 'abc']);
    expect(() => parseHeader('nocolon')).toThrow(/Name: value/);
    expect(() => parseHeader('Authorization: Bearer x')).toThrow(/never passed as flags/);
  });

  it('flattens fields to query parameters', () => {
    expect(toQuery({ page: 2, status: 'draft', tags: ['a', 'b'], f: { x: 1 }, n: null })).toEqual({
      page: '2',
      status: 'draft',
      tags: ['a', 'b'],
      'f[x]': '1',
      n: '',
    });
  });
});
