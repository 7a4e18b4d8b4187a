// `release apply` stopped by a signal (SIGINT, SIGTERM) on the built binary: before it exits, every
// release it did not finish gets its line (stdout and --report), outcome interrupted; the exit code
// is the signal's (130); and `--only-failed REPORT` then finishes exactly those.
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFaultProxy, type FaultProxy } from '../helpers/fault-proxy.js';
import { runAndKill, startRun } from '../helpers/kill-run.js';
import { releaseYaml } from '../helpers/release-yaml.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { makeConfigDir } from '../integration/cli-harness.js';
import { ROOT, cliEnv } from './cli-e2e-helpers.js';
import { jsonLines } from '../helpers/json-lines.js';

// The smallest valid audio in the repository (a FLAC of ~220 KB, over 30 s).
const AUDIO = join(ROOT, 'examples/first-release/audio/first-light.flac');
const RELEASES = 3;

let server: TestServer;
let proxy: FaultProxy;
let config: { dir: string; cleanup(): Promise<void> };
let work: string;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  server = await startTestServer({ rateLimit: false });
  proxy = await startFaultProxy({ target: server.url, seed: 3, faults: {} });
  config = await makeConfigDir();
  work = await mkdtemp(join(tmpdir(), 'reldist-apply-signal-'));
  env = cliEnv({ url: proxy.url, token: server.tokens.label, configDir: config.dir });
});

afterAll(async () => {
  await proxy?.close();
  await server?.close();
  await config?.cleanup();
  if (work) await rm(work, { recursive: true, force: true });
});

describe.each(['SIGINT', 'SIGTERM'] as const)('release apply, stopped by %s', (signal) => {
  it('writes an interrupted line for each release it did not finish, exits 130, and a retry finishes them', { timeout: 60_000 }, async () => {
    const dir = join(work, signal);
    await mkdir(dir, { recursive: true });
    for (let i = 1; i <= RELEASES; i++) await writeFile(join(dir, `r${i}.yaml`), releaseYaml(`${signal}-${i}`, { audio: AUDIO }));
    const report = join(work, `${signal}.jsonl`);
    const args = ['release', 'apply', dir, '--submit', '--parallel', '1', '--json', '--report', report];
    // The second release's upload is held at the proxy; the signal is sent once it has arrived.
    let uploads = 0;
    let letGo: (v: 'drop') => void = () => {};
    let pid: number | undefined;
    proxy.setHooks({
      onRequest: (e) => {
        if (e.route !== '/uploads/{key}' || ++uploads !== 2) return undefined;
        process.kill(pid!, signal);
        return new Promise<'drop'>((resolve) => (letGo = resolve));
      },
    });
    const child = startRun({ args, env, timeoutMs: 30_000 });
    pid = child.pid;
    const r = await child.result.finally(() => {
      letGo('drop');
      proxy.setHooks({});
    });
    expect(r.code, r.stderr).toBe(130);
    expect(r.stderr).toMatch(
      /^\{"error":\{"code":"interrupted","message":"interrupted: 1 of 3 releases finished, 2 not \(each has its line, outcome interrupted\)"/m,
    );
    const lines = jsonLines(await readFile(report, 'utf8'));
    expect(jsonLines(r.stdout)).toEqual(lines);
    expect(lines.map((l) => [l.catalog_number, l.outcome, l.status, l.error?.code ?? null])).toEqual([
      [`${signal}-1`, 'submitted', 'in_review', null],
      [`${signal}-2`, 'interrupted', 'draft', 'interrupted'],
      [`${signal}-3`, 'interrupted', null, 'interrupted'],
    ]);
    expect(lines[1].error.message).toMatch(/^the run stopped \(interrupted\) while this release was being applied; release \d+ is draft/);

    const retry = await runAndKill({ args: ['release', 'apply', dir, '--submit', '--only-failed', report, '--report', report], env, timeoutMs: 30_000 });
    expect(retry.code, retry.stderr).toBe(0);
    expect(retry.stderr).toMatch(/^retrying 2 of 3: 2 interrupted$/m);
    const last = new Map(jsonLines(await readFile(report, 'utf8')).map((l) => [l.catalog_number, l.outcome]));
    expect([...last.values()]).toEqual(['submitted', 'submitted', 'submitted']);
  });
});
