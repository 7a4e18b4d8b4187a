// The release files' YAML writer: whatever it writes, the yaml parser reads back as the same
// value (text that looks like a number, a date, a keyword, a comment or a key stays text).
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { toYaml, yamlScalar } from '../../src/cli/release-file/yaml-emit.js';

const TRICKY = [
  'Nina Vale',
  '1999',
  '012345678905',
  '2027-01-15',
  'yes',
  'No',
  'null',
  '~',
  'true',
  'Y',
  'a: b',
  'a #b',
  '#hash',
  '- dash',
  '  padded  ',
  '',
  "O'Brien, Jr.",
  '"quoted"',
  'line\nbreak',
  'tab\there',
  '℗ Northern Lights',
  '@handle',
  '*alias',
  '&anchor',
  '!tag',
  '%directive',
  '{flow}',
  '[list]',
  '1e3',
  '.inf',
  'NaN',
  'Radio Edit.',
  'x',
  '0x1F',
  'a\u0000b',
  '😀 emoji',
];

describe('toYaml', () => {
  it('writes text that the parser reads back unchanged', () => {
    for (const s of TRICKY) expect(parse(`v: ${yamlScalar(s)}\n`), JSON.stringify(s)).toEqual({ v: s });
  });

  it('writes a release-shaped document that parses to the same value', () => {
    const data = {
      type: 'album',
      title: '1999',
      artists: [
        { name: 'Nina Vale', role: 'primary' },
        { name: 'Lena Voss', role: 'featuring', artist_id: 7 },
      ],
      p_line: { year: 2026, owner: 'NLR: #1' },
      tracks: [{ file: `sha256:${'a'.repeat(64)}`, title: 'Yes', contributors: [], disc: 2, preview_start_seconds: 0 }],
      delivery: { platforms: 'all', territories: { mode: 'include', countries: ['DE', 'NO'] } },
      video: { enabled: false, content_id: {} },
      nested: [[1, 2], []],
      skipped: undefined,
    };
    const { skipped: _skipped, ...expected } = data;
    expect(parse(toYaml(data))).toEqual(expected);
    for (const s of TRICKY) expect(parse(toYaml({ title: s, tracks: [{ title: s }] }))).toEqual({ title: s, tracks: [{ title: s }] });
  });
});
