// Writes openapi.json from the contract (src/contract/openapi.ts). The TypeScript source is run
// as is: esbuild bundles it into a temporary file that is imported and deleted. A test
// (test/unit/openapi.test.ts) fails when the checked-in file differs from what this writes.
import { build } from 'esbuild';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const root = fileURLToPath(new URL('..', import.meta.url));

/**
 * Imports the contract (src/contract/index.ts and openapi.ts) from source: bundled with zod into a
 * temporary file, so that file resolves nothing from where it lies.
 */
export async function loadContract() {
  const dir = await mkdtemp(join(tmpdir(), 'reldist-contract-'));
  try {
    const outfile = join(dir, 'contract.mjs');
    await build({
      stdin: {
        contents: "export * from './src/contract/index.ts'; export * from './src/contract/openapi.ts';",
        resolveDir: root,
        sourcefile: 'contract-entry.ts',
        loader: 'ts',
      },
      outfile,
      bundle: true,
      format: 'esm',
      platform: 'node',
      target: 'node20.19',
      absWorkingDir: root,
      logLevel: 'warning',
    });
    return await import(pathToFileURL(outfile).href);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

export async function packageVersion() {
  return JSON.parse(await readFile(join(root, 'package.json'), 'utf8')).version;
}

/** The exact text of openapi.json. */
export async function renderOpenApi() {
  const { buildOpenApi } = await loadContract();
  return `${JSON.stringify(buildOpenApi({ version: await packageVersion() }), null, 2)}\n`;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const target = join(root, 'openapi.json');
  await writeFile(target, await renderOpenApi());
  process.stderr.write(`wrote ${target}\n`);
}
