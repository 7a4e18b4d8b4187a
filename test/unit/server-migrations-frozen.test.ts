// Migrations are frozen: a migration file imports no live code (store/, rules, the contract), so
// that changing that code later cannot change what an old migration does to a database that has
// not run it yet. Every component's migrations live in such a file.
import { readdirSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { serverModules } from '../../src/server/index.js';

const DB_DIR = join(import.meta.dirname, '../../src/server/db');
const MIGRATION_FILES = readdirSync(DB_DIR).filter((f) => f === 'migrations.ts' || f.endsWith('-migrations.ts'));

interface ImportOf {
  specifier: string;
  typeOnly: boolean;
}

/** Every module a source file loads or names: static imports and re-exports, import(), require(). */
function importsOf(source: string): ImportOf[] {
  const found: ImportOf[] = [];
  for (const m of source.matchAll(/^\s*(import|export)(\s+type)?\b[^;'"]*?\bfrom\s*['"]([^'"]+)['"]/gm)) {
    found.push({ specifier: m[3]!, typeOnly: m[2] !== undefined });
  }
  for (const m of source.matchAll(/^\s*import\s*['"]([^'"]+)['"]/gm)) found.push({ specifier: m[1]!, typeOnly: false });
  for (const m of source.matchAll(/\b(?:import|require)\s*\(\s*['"]([^'"]+)['"]/g)) found.push({ specifier: m[1]!, typeOnly: false });
  return found;
}

/** Why an import is not allowed in a migration file, or undefined when it is. */
function refusal({ specifier, typeOnly }: ImportOf): string | undefined {
  if (specifier === 'better-sqlite3') return undefined;
  if (specifier.startsWith('node:') || builtinModules.includes(specifier)) return undefined;
  // The db helpers beside the migrations.
  if (/^\.\/[^/]+\.js$/.test(specifier)) return undefined;
  // Migration and ServerModule, as types: nothing runs.
  if (specifier === '../handler.js' && typeOnly) return undefined;
  return typeOnly ? `imports types from ${specifier}` : `imports live code from ${specifier}`;
}

function refusalsIn(source: string): string[] {
  return importsOf(source).flatMap((i) => refusal(i) ?? []);
}

test('the checker refuses what a thawed migration would import', () => {
  const thawed = [
    "import type { Database } from 'better-sqlite3';",
    "import { catalogKey, searchText, type ReleaseData } from '../store/releases.js';",
    "import type { ReleaseResource } from '../../contract/index.js';",
    "import { ServiceError } from '../handler.js';",
    "const { foldName } = await import('../artists/search.js');",
  ].join('\n');
  expect(refusalsIn(thawed)).toEqual([
    'imports live code from ../store/releases.js',
    'imports types from ../../contract/index.js',
    'imports live code from ../handler.js',
    'imports live code from ../artists/search.js',
  ]);
});

test.each(MIGRATION_FILES)('src/server/db/%s imports no live code', (file) => {
  expect(refusalsIn(readFileSync(join(DB_DIR, file), 'utf8'))).toEqual([]);
});

test("every component's migrations are defined in a migration file of src/server/db", async () => {
  const frozen = new Set<unknown>();
  for (const file of MIGRATION_FILES) {
    const mod = (await import(join(DB_DIR, file))) as Record<string, unknown>;
    for (const value of Object.values(mod)) if (Array.isArray(value)) frozen.add(value);
  }
  const elsewhere = serverModules.filter((m) => !frozen.has(m.migrations)).map((m) => m.component);
  expect(elsewhere).toEqual([]);
  expect(serverModules.length).toBeGreaterThan(1);
});
