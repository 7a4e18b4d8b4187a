// Apply finds a release on the service by its catalog number, so the number is the release's key:
// compared trimmed and case-insensitively, required in every file, and never shared by two files.
import { catalogNumberKey as normaliseCatalogNumber } from '../../contract/catalog-number.js';
import type { ReleaseResource } from '../../contract/index.js';

/** The form two catalog numbers are compared in: the contract's one definition, the service's too. */
export { normaliseCatalogNumber };

export interface CatalogEntry {
  /** The release file, as the user named it. */
  file: string;
  catalogNumber: string | null | undefined;
}

/**
 * One line per problem, in the order of the files: a file without a catalog number, and a file
 * whose catalog number an earlier file already has (naming both).
 */
export function catalogNumberProblems(entries: readonly CatalogEntry[]): string[] {
  const problems: string[] = [];
  const firstFile = new Map<string, string>();
  for (const { file, catalogNumber } of entries) {
    const key = catalogNumber == null ? '' : normaliseCatalogNumber(catalogNumber);
    if (key === '') {
      problems.push(`${file}: catalog_number: missing; apply finds the release on the service by its catalog number, so every file needs one`);
      continue;
    }
    const first = firstFile.get(key);
    if (first === undefined) {
      firstFile.set(key, file);
    } else {
      problems.push(`${file}: catalog_number: "${catalogNumber!.trim()}" is also the catalog number of ${first}; each release needs its own`);
    }
  }
  return problems;
}

export type CatalogMatch =
  | { kind: 'none' }
  | { kind: 'one'; release: ReleaseResource }
  /** Two releases on the service share the number: apply cannot tell which one the file means. */
  | { kind: 'ambiguous'; releases: ReleaseResource[]; message: string };

/** The service's release with this catalog number, among `releases` (e.g. every page of the list). */
export function matchByCatalogNumber(catalogNumber: string, releases: readonly ReleaseResource[]): CatalogMatch {
  const key = normaliseCatalogNumber(catalogNumber);
  const found = releases.filter((r) => r.catalog_number !== null && normaliseCatalogNumber(r.catalog_number) === key);
  if (found.length === 0) return { kind: 'none' };
  if (found.length === 1) return { kind: 'one', release: found[0]! };
  const ids = found.map((r) => String(r.id)).join(', ');
  return {
    kind: 'ambiguous',
    releases: found,
    message: `catalog number "${catalogNumber.trim()}" is on ${found.length} releases of the service (${ids}); give each its own catalog number, or delete the extra drafts`,
  };
}
