import { describe, expect, it } from 'vitest';
import type { ReleaseResource } from '../../src/contract/index.js';
import { catalogNumberProblems, matchByCatalogNumber, normaliseCatalogNumber } from '../../src/cli/apply/catalog-key.js';

describe('apply: the catalog number as the key', () => {
  it('compares catalog numbers trimmed and without case', () => {
    expect(normaliseCatalogNumber('  NLR-0001 ')).toBe('nlr-0001');
    expect(normaliseCatalogNumber('nlr-0001')).toBe(normaliseCatalogNumber('NLR-0001'));
    expect(normaliseCatalogNumber('NLR-0001')).not.toBe(normaliseCatalogNumber('NLR-001'));
  });

  it('accepts files with one catalog number each', () => {
    expect(
      catalogNumberProblems([
        { file: 'a.yaml', catalogNumber: 'NLR-1' },
        { file: 'b.yaml', catalogNumber: 'NLR-2' },
      ]),
    ).toEqual([]);
  });

  it('names every file without a catalog number, and both files of a shared one', () => {
    expect(
      catalogNumberProblems([
        { file: 'a.yaml', catalogNumber: 'NLR-1' },
        { file: 'b.yaml', catalogNumber: undefined },
        { file: 'c.yaml', catalogNumber: ' nlr-1' },
        { file: 'd.yaml', catalogNumber: '  ' },
        { file: 'e.yaml', catalogNumber: null },
        { file: 'f.yaml', catalogNumber: 'NLR-1' },
      ]),
    ).toEqual([
      'b.yaml: catalog_number: missing; apply finds the release on the service by its catalog number, so every file needs one',
      'c.yaml: catalog_number: "nlr-1" is also the catalog number of a.yaml; each release needs its own',
      'd.yaml: catalog_number: missing; apply finds the release on the service by its catalog number, so every file needs one',
      'e.yaml: catalog_number: missing; apply finds the release on the service by its catalog number, so every file needs one',
      'f.yaml: catalog_number: "NLR-1" is also the catalog number of a.yaml; each release needs its own',
    ]);
  });

  it('finds the service release by catalog number, and refuses to guess between two', () => {
    const release = (id: number, catalog_number: string | null) => ({ id, catalog_number }) as unknown as ReleaseResource;
    const releases = [release(1, 'NLR-1'), release(2, null), release(3, 'nlr-2 '), release(4, 'NLR-2')];
    expect(matchByCatalogNumber('NLR-3', releases)).toEqual({ kind: 'none' });
    expect(matchByCatalogNumber(' nlr-1', releases)).toEqual({ kind: 'one', release: releases[0] });
    const twice = matchByCatalogNumber('NLR-2', releases);
    expect(twice.kind).toBe('ambiguous');
    expect(twice.kind === 'ambiguous' && twice.message).toBe(
      'catalog number "NLR-2" is on 2 releases of the service (3, 4); give each its own catalog number, or delete the extra drafts',
    );
  });
});
