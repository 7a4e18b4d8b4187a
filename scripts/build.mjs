// Bundles the CLI with code splitting: the entry chunk answers --version and the root help alone;
// commander, the top-level commands and the invoked group's declarations load next; every heavy
// dependency lands in a chunk loaded by the command that needs it. esbuild splits only ES modules,
// so the chunks are then rewritten as CommonJS (dist/package.json says so): Node 20 loads CommonJS
// synchronously, without the ES module loader's per-file costs (docs/startup.md has the numbers).
// Writes dist/meta.json (esbuild's metafile) so the split can be checked: `node scripts/build.mjs --report`.
import { build } from 'esbuild';
import { spawnSync } from 'node:child_process';
import { readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';

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

// @hono/node-server imports node:http2 at load time (7 ms of every service start, the embedded
// sandbox's first command included) for `instanceof Http2ServerRequest` checks and the constants
// of an HTTP/2 stream's close. The service listens on node:http only (src/server/index.ts), so no
// request is ever an Http2ServerRequest: a class nothing is an instance of, and the constants read
// from the real module if ever asked for.
const noHttp2Requests = {
  name: 'no-http2-requests',
  setup(b) {
    b.onResolve({ filter: /^(node:)?http2$/ }, (args) =>
      /node_modules[\\/]@hono[\\/]node-server[\\/]/.test(args.importer) ? { path: 'no-http2-requests', namespace: 'no-http2-requests' } : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: 'no-http2-requests' }, () => ({
      contents: "module.exports = { Http2ServerRequest: class {}, get constants() { return require('node:http2').constants; } };",
      loader: 'js',
    }));
  },
};

// Some bundled CommonJS dependencies call require(); give ESM chunks one.
const banner = {
  js: "import { createRequire as __reldistCreateRequire } from 'node:module'; const require = __reldistCreateRequire(import.meta.url);",
};

await rm(new URL('dist', root), { recursive: true, force: true });

// What main.ts answers without loading commander (version, help topics, the root help as commander
// renders it for a pipe): run src/cli/static-answers.ts once, here, in a child whose stdout is a
// pipe like the one the answer is for, and bundle the result as strings.
const genDir = fileURLToPath(new URL('dist/.static-answers', root));
await build({
  stdin: {
    contents: "import { staticAnswers } from './src/cli/static-answers.ts'; process.stdout.write(JSON.stringify(await staticAnswers()));",
    resolveDir: fileURLToPath(root),
    loader: 'ts',
  },
  outfile: `${genDir}/gen.mjs`,
  bundle: true,
  format: 'esm',
  platform: 'node',
  target: 'node20.19',
  external: ['better-sqlite3', 'sharp'],
  banner,
  logLevel: 'warning',
  plugins: [lazyChildProcess],
});
const gen = spawnSync(process.execPath, [`${genDir}/gen.mjs`], {
  encoding: 'utf8',
  stdio: ['ignore', 'pipe', 'inherit'],
  env: { ...process.env, NO_COLOR: '1' },
});
if (gen.status !== 0) throw new Error(`scripts/build.mjs: rendering the static answers failed (exit ${gen.status})`);
const answers = JSON.parse(gen.stdout);
await rm(genDir, { recursive: true, force: true });
const bakedAnswers = {
  name: 'baked-static-answers',
  setup(b) {
    b.onLoad({ filter: /[\\/]src[\\/]cli[\\/]static-answers\.ts$/ }, () => ({
      contents: `export async function staticAnswers() { return ${JSON.stringify(answers)}; }`,
      loader: 'js',
    }));
  },
};

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
  // Native addons (sharp: libvips): must be resolved from node_modules at run time.
  external: ['better-sqlite3', 'sharp'],
  logLevel: 'warning',
  metafile: true,
  plugins: [lazyChildProcess, noHttp2Requests, bakedAnswers],
  // Less text to parse at start-up; names are kept so stack traces under --debug stay readable.
  minifyWhitespace: true,
  minifySyntax: true,
});
await writeFile(new URL('dist/meta.json', root), JSON.stringify(result.metafile));

// ES modules to CommonJS, chunk by chunk, in place (same names, so meta.json still describes them;
// esbuild reads each chunk's source map and writes one that still points at src/). import() becomes
// require(): a CommonJS import() would go back through the ES module loader. Code that only works
// as an ES module (top-level await, import.meta) fails the build here instead of running wrong.
// dist/package.json first: esbuild then reads the chunks as ES modules of a CommonJS package, so
// an import of another chunk honours its __esModule mark (Node's own rule for a CommonJS module
// would hand over module.exports as the default export, and a chunk's `default` would be lost).
await writeFile(new URL('dist/package.json', root), '{ "type": "commonjs" }\n');
const chunks = (await readdir(new URL('dist/chunks', root))).filter((f) => f.endsWith('.js')).map((f) => `dist/chunks/${f}`);
const converted = await build({
  entryPoints: ['dist/main.js', ...chunks],
  outdir: 'dist',
  outbase: 'dist',
  allowOverwrite: true,
  bundle: false,
  format: 'cjs',
  platform: 'node',
  target: 'node20.19',
  supported: { 'dynamic-import': false },
  sourcemap: 'linked',
  logLevel: 'silent',
  minifyWhitespace: true,
  minifySyntax: true,
}).catch((err) => err);
const problems = [...(converted.errors ?? []), ...(converted.warnings ?? [])];
if (problems.length > 0) {
  for (const p of problems) console.error(`scripts/build.mjs: ${p.location?.file ?? ''}: ${p.text}`);
  throw new Error('scripts/build.mjs: a chunk cannot be loaded as CommonJS (see above)');
}
// ES modules are strict code; esbuild marks its CommonJS output of one so. Sloppy mode would change
// meaning silently, so check.
for (const file of ['dist/main.js', ...chunks]) {
  if (!(await readFile(new URL(file, root), 'utf8')).startsWith('"use strict";')) throw new Error(`scripts/build.mjs: ${file} is not strict code`);
}

if (process.argv.includes('--report')) {
  // What the entry chunk statically pulls in: main.js and esbuild's helpers only (no commander).
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
    const pkgs = [
      ...new Set(
        inputs
          .filter((i) => i.includes('node_modules/'))
          .map((i) =>
            i
              .split('node_modules/')
              .pop()
              .split('/')
              .slice(0, i.includes('node_modules/@') ? 2 : 1)
              .join('/'),
          ),
      ),
    ];
    console.log(`${file}  ${(outputs[file].bytes / 1024).toFixed(1)} KB  packages: ${pkgs.join(', ') || '(none)'}  modules: ${inputs.length}`);
  }
}
