import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  comparePaths,
  countText,
  groupProblems,
  problemLine,
  problemRows,
  renderProblemGroups,
  type SubmitProblem,
} from '../../src/cli/commands/release/problems.js';

const problems: SubmitProblem[] = [
  { path: 'tracks.10.title', code: 'title_all_caps', message: 'The title is in capitals', severity: 'warning' },
  { path: 'tracks.2.isrc', code: 'isrc_duplicate', message: 'GBNLR2600001 is used twice', hint: 'give each track its own ISRC', severity: 'error' },
  {
    path: 'title',
    code: 'title_has_featuring',
    message: 'The title credits an artist with "feat."',
    hint: 'add the artist with the role featuring',
    severity: 'error',
  },
  { path: 'tracks.2.isrc', code: 'isrc_future_year', message: 'The year 31 is in the future', severity: 'warning' },
  { path: 'tracks.2.isrc', code: 'isrc_invalid', message: 'not 12 characters', severity: 'error' },
  { code: 'no_tracks_ready', message: 'Two tracks have no ready audio', severity: 'error' },
];

describe('submit problems', () => {
  it('groups by field path: release first, then tracks in number order; errors before warnings', () => {
    const groups = groupProblems(problems);
    expect(groups.map((g) => g.path)).toEqual(['', 'title', 'tracks.2.isrc', 'tracks.10.title']);
    expect(groups[2]!.problems.map((p) => p.code)).toEqual(['isrc_duplicate', 'isrc_invalid', 'isrc_future_year']);
  });

  it('renders every problem on one line under its path', () => {
    expect(renderProblemGroups(problems)).toBe(
      [
        '(release)',
        '  error    no_tracks_ready: Two tracks have no ready audio',
        'title',
        '  error    title_has_featuring: The title credits an artist with "feat." (hint: add the artist with the role featuring)',
        'tracks.2.isrc',
        '  error    isrc_duplicate: GBNLR2600001 is used twice (hint: give each track its own ISRC)',
        '  error    isrc_invalid: not 12 characters',
        '  warning  isrc_future_year: The year 31 is in the future',
        'tracks.10.title',
        '  warning  title_all_caps: The title is in capitals',
        '',
      ].join('\n'),
    );
  });

  it('writes tab-separated rows for a pipe, one problem per row', () => {
    const rows = problemRows(['42', 'blocked'], problems).trimEnd().split('\n');
    expect(rows).toHaveLength(problems.length);
    expect(rows[0]).toBe('42\tblocked\t\terror\tno_tracks_ready\tTwo tracks have no ready audio\t');
    expect(rows[2]).toBe('42\tblocked\ttracks.2.isrc\terror\tisrc_duplicate\tGBNLR2600001 is used twice\tgive each track its own ISRC');
  });

  it('keeps a message with line breaks or tabs on its line', () => {
    const p: SubmitProblem = { path: 'a', code: '', message: 'one\ntwo\tthree', hint: 'x\ny', severity: 'error' };
    expect(problemLine(p)).toBe('error    one two\tthree (hint: x y)');
    expect(problemRows(['1'], [p])).toBe('1\ta\terror\t\tone two three\tx y\n');
  });

  it('counts errors and warnings', () => {
    expect(countText(problems)).toBe('4 errors, 2 warnings');
    expect(countText([problems[0]!])).toBe('1 warning');
    expect(countText([])).toBe('no problems');
  });

  it('orders paths as a total order (antisymmetric, transitive)', () => {
    const seg = fc.oneof(fc.constantFrom('tracks', 'title', 'artists', 'isrc', 'c_line'), fc.nat(12).map(String));
    const path = fc.oneof(
      fc.constant(''),
      fc.array(seg, { minLength: 1, maxLength: 4 }).map((s) => s.join('.')),
    );
    fc.assert(
      fc.property(path, path, path, (a, b, c) => {
        expect(Math.sign(comparePaths(a, b))).toBe(-Math.sign(comparePaths(b, a)) || 0);
        if (comparePaths(a, b) <= 0 && comparePaths(b, c) <= 0) expect(comparePaths(a, c)).toBeLessThanOrEqual(0);
      }),
    );
  });

  it('never loses or invents a problem', () => {
    const prob = fc.record({
      path: fc.option(fc.constantFrom('title', 'tracks.0.isrc', 'tracks.1.title', 'upc'), { nil: undefined }),
      code: fc.constantFrom('', 'x'),
      message: fc.string(),
      severity: fc.constantFrom('error', 'warning'),
    });
    fc.assert(
      fc.property(fc.array(prob, { maxLength: 30 }), (list) => {
        const flat = groupProblems(list).flatMap((g) => g.problems);
        expect(flat).toHaveLength(list.length);
        expect(new Set(flat)).toEqual(new Set(list));
      }),
    );
  });
});
