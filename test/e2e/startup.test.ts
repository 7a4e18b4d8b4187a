// Start-up is a feature: one-shot commands must not load the heavy parts. A module hook records
// every file the built CLI loads; dist/meta.json (esbuild's metafile) says what each file holds.
import { mkdtempSync, readFileSync, rmSync, existsSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { cleanEnv, runBin } from './sandbox-helpers.js';
import { commandGroups } from '../../src/cli/commands/index.js';

const dist = fileURLToPath(new URL('../../dist/', import.meta.url));
// dist/ is CommonJS: a preload records the require cache at exit; an ES module hook records
// anything that still comes through the ES module loader.
const HOOK = `
import { appendFileSync } from 'node:fs';
export async function load(url, context, next) {
  if (url.startsWith('file:')) appendFileSync(process.env.RELDIST_TEST_LOADS, url + '\\n');
  return next(url, context);
}`;
const REGISTER = `data:text/javascript,${encodeURIComponent(
  `import { register } from 'node:module'; register(${JSON.stringify(`data:text/javascript,${encodeURIComponent(HOOK)}`)});`,
)}`;
const PRELOAD = `
const { appendFileSync } = require('node:fs');
const { pathToFileURL } = require('node:url');
process.on('exit', () => {
  const urls = Object.keys(require.cache).map((f) => pathToFileURL(f).href);
  appendFileSync(process.env.RELDIST_TEST_LOADS, urls.map((u) => u + '\\n').join(''));
});`;

const HEAVY = [
  'node_modules/zod/',
  'node_modules/undici/',
  'node_modules/conf/',
  'node_modules/@inquirer/',
  'node_modules/music-metadata/',
  'node_modules/better-sqlite3/',
  'node_modules/hono/',
  'src/server/',
  'node_modules/cli-table3/',
  'node_modules/chalk/',
];

let server: TestServer;
let home: string;
beforeAll(async () => {
  server = await startTestServer();
  home = mkdtempSync(join(tmpdir(), 'reldist-e2e-startup-'));
  writeFileSync(join(home, 'preload.cjs'), PRELOAD);
});
afterAll(async () => {
  await server?.close();
  rmSync(home, { recursive: true, force: true });
});

/** The source inputs (node_modules packages and our files) behind every dist file a command loaded. */
async function loadedInputs(args: string[], extraEnv: Record<string, string> = {}): Promise<string[]> {
  const trace = join(home, `loads-${Math.random().toString(36).slice(2)}.txt`);
  const env = cleanEnv({ HOME: home, RELDIST_CONFIG_DIR: join(home, 'config'), RELDIST_DATA_DIR: join(home, 'data'), RELDIST_TEST_LOADS: trace, ...extraEnv });
  const r = await runBin(args, env, '', ['--import', REGISTER, '--require', join(home, 'preload.cjs')]);
  expect(r.code, r.stderr).toBe(0);
  const meta = JSON.parse(readFileSync(join(dist, 'meta.json'), 'utf8')) as { outputs: Record<string, { inputs: Record<string, unknown> }> };
  const files = [...new Set(existsSync(trace) ? readFileSync(trace, 'utf8').trim().split('\n') : [])];
  const inputs = new Set<string>();
  for (const url of files) {
    const path = fileURLToPath(url);
    if (path === join(home, 'preload.cjs')) continue;
    if (!path.startsWith(dist)) {
      inputs.add(path);
      continue;
    }
    const out = meta.outputs[`dist/${path.slice(dist.length)}`];
    expect(out, `dist file ${path} is in the metafile`).toBeDefined();
    for (const i of Object.keys(out!.inputs)) inputs.add(i);
  }
  return [...inputs];
}

function heavyIn(inputs: string[]): string[] {
  return inputs.filter((i) => HEAVY.some((h) => i.includes(h)));
}

describe('start-up: what one-shot commands load', () => {
  it('--version loads neither commander nor anything heavy', async () => {
    const inputs = await loadedInputs(['--version']);
    expect(heavyIn(inputs)).toEqual([]);
    expect(inputs.some((i) => i.includes('node_modules/commander/'))).toBe(false);
  });

  it('the root --help (on a pipe) loads neither commander nor any declaration', async () => {
    for (const flag of ['--help', '-h']) {
      const inputs = await loadedInputs([flag]);
      expect(heavyIn(inputs)).toEqual([]);
      expect(inputs.some((i) => i.includes('node_modules/commander/'))).toBe(false);
      expect(inputs.filter((i) => i.startsWith('src/cli/commands/'))).toEqual([]);
    }
  });

  it('the stored root help is what commander prints for `reldist help`', async () => {
    const env = cleanEnv({ HOME: home, RELDIST_CONFIG_DIR: join(home, 'config') });
    const stored = await runBin(['--help'], env);
    const rendered = await runBin(['help'], env);
    expect(rendered.code).toBe(0);
    expect(stored.code).toBe(0);
    expect(stored.stdout).toBe(rendered.stdout);
    expect(stored.stdout).toContain('Usage: reldist');
    for (const g of commandGroups) expect(stored.stdout).toContain(g.name);
  });

  it('a command loads commander and its own group only, nothing heavy', async () => {
    const inputs = await loadedInputs(['validate', 'upc', '036000241457']);
    expect(heavyIn(inputs)).toEqual([]);
    // Offline validation needs neither the wire contract nor the HTTP client.
    expect(inputs.filter((i) => i.startsWith('src/contract/') || i.startsWith('src/client/'))).toEqual([]);
    expect(inputs.some((i) => i.includes('node_modules/commander/'))).toBe(true);
    const groupsLoaded = new Set(inputs.map((i) => /^src\/cli\/commands\/([^/]+)\//.exec(i)?.[1]).filter(Boolean));
    const groupNames = new Set(commandGroups.map((g) => g.name));
    expect([...groupsLoaded].filter((g) => groupNames.has(g!))).toEqual(['validate']);
  });

  it('a one-shot GET goes through node:http without zod, undici or conf', async () => {
    const inputs = await loadedInputs(['api', 'GET', '/releases'], { RELDIST_BASE_URL: server.url, RELDIST_TOKEN: server.tokens.label });
    expect(heavyIn(inputs)).toEqual([]);
    expect(inputs).toContain('src/client/transport-http.ts');
  });

  it('long work (--paginate) takes undici, still without zod', async () => {
    const env = { RELDIST_BASE_URL: server.url, RELDIST_TOKEN: server.tokens.label };
    const paged = await loadedInputs(['api', 'GET', '/releases', '--paginate'], env);
    expect(paged.some((i) => i.includes('node_modules/undici/'))).toBe(true);
    expect(paged.some((i) => i.includes('node_modules/zod/'))).toBe(false);
  });
});

describe('start-up: the embedded sandbox in the command', () => {
  // RELDIST_SANDBOX_IDLE=0: the service runs in the command, as on a first run.
  const inCommand = { RELDIST_SANDBOX_IDLE: '0' };
  const schemaModules = (inputs: string[]) => inputs.filter((i) => /^src\/contract\/(queries|bodies|requests|resources|catalog)\.ts$/.test(i)).sort();

  it('a read the fast lane answers loads the service without hono (nor the undici it brings) or any schema', async () => {
    for (const args of [
      ['lookup', 'countries', '--json'],
      ['release', 'list', '--json'],
    ]) {
      const inputs = await loadedInputs(args, inCommand);
      expect(inputs.some((i) => i.startsWith('src/server/'))).toBe(true);
      expect(inputs.filter((i) => /node_modules\/(hono|@hono|zod)\//.test(i))).toEqual([]);
    }
  });

  it("a read the app answers builds that route's query and path schemas only: no body or answer schema", async () => {
    const inputs = await loadedInputs(['release', 'list', '--status', 'draft', '--json'], inCommand);
    expect(inputs.some((i) => i.includes('node_modules/@hono/node-server/'))).toBe(true);
    expect(schemaModules(inputs)).toEqual(['src/contract/queries.ts']);
  });
});

describe('the table of groups', () => {
  it('names and summarizes every group as its own declaration does', async () => {
    for (const entry of commandGroups) {
      const group = await entry.load();
      expect({ name: group.name, summary: group.summary }).toEqual({ name: entry.name, summary: entry.summary });
    }
    expect(new Set(commandGroups.map((g) => g.name)).size).toBe(commandGroups.length);
  });
});
