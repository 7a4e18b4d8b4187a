// Bundles the CLI with code splitting: the entry chunk holds commander and the command
// declarations only; every heavy dependency lands in a chunk loaded by the command that needs it.
// Writes dist/meta.json (esbuild's metafile) so the split can be checked: `node scripts/build.mjs --report`.
import { build } from 'esbuild';
import { rm, writeFile } from 'node:fs/promises';

const root = new URL('..', import.meta.url);

// commander requires node:child_process at load time, for executable sub-commands we never use;
// loading it costs every command a few ms (see docs/startup.md). Give commander a lazy stand-in.
const lazyChildProcess = {
  name: 'lazy-child-process',
  setup(b) {
    b.onResolve({ filter: /^(node:)?child_process$/ }, (args) =>
      /node_modules[\\/]commander[\\/]/.test(args.importer) ? { path: 'lazy-child-process', namespace: 'lazy-child-process' } : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: 'lazy-child-process' }, () => ({
      contents: "module.exports = new Proxy({}, { get: (_, key) => require('node:child_process')[key] });",
      loader: 'js',
    }));
  },
};

await rm(new URL('dist', root), { recursive: true, force: true });
const result = await build({
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
  metafile: true,
  plugins: [lazyChildProcess],
  // Less text to parse at start-up; names are kept so stack traces under --debug stay readable.
  minifyWhitespace: true,
  minifySyntax: true,
});
await writeFile(new URL('dist/meta.json', root), JSON.stringify(result.metafile));

if (process.argv.includes('--report')) {
  // What the entry chunk statically pulls in: it must be commander and our declarations only.
  const outputs = result.metafile.outputs;
  const entry = 'dist/main.js';
  const seen = new Set();
  const walk = (file) => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const imp of outputs[file]?.imports ?? []) if (imp.kind === 'import-statement' && !imp.external) walk(imp.path);
  };
  walk(entry);
  for (const file of seen) {
    const inputs = Object.keys(outputs[file].inputs);
    const pkgs = [...new Set(inputs.filter((i) => i.includes('node_modules/')).map((i) => i.split('node_modules/').pop().split('/').slice(0, i.includes('node_modules/@') ? 2 : 1).join('/')))];
    console.log(`${file}  ${(outputs[file].bytes / 1024).toFixed(1)} KB  packages: ${pkgs.join(', ') || '(none)'}  modules: ${inputs.length}`);
  }
}
