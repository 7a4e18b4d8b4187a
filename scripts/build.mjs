// Bundles the CLI with code splitting: the entry chunk holds commander and the command
// declarations only; every heavy dependency lands in a chunk loaded by the command that needs it.
import { build } from 'esbuild';
import { rm } from 'node:fs/promises';

await rm(new URL('../dist', import.meta.url), { recursive: true, force: true });
await build({
  entryPoints: { main: 'src/cli/main.ts' },
  outdir: 'dist',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20.19',
  sourcemap: 'linked',
  chunkNames: 'chunks/[name]-[hash]',
  // Native addon: must be resolved from node_modules at run time.
  external: ['better-sqlite3'],
  // Some bundled CommonJS dependencies call require(); give ESM chunks one.
  banner: {
    js: "import { createRequire as __reldistCreateRequire } from 'node:module'; const require = __reldistCreateRequire(import.meta.url);",
  },
  logLevel: 'warning',
  metafile: false,
});
