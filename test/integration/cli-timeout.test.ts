// The global --timeout against a real service that hangs (a fault proxy holding requests): the
// whole command ends with exit 7 and one line saying what was in flight, what may already exist
// and whether running it again is safe.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useCli, writeWav } from './cli-harness.js';
import { createRelease } from '../helpers/releases.js';
import { releaseYaml } from '../helpers/release-yaml.js';
import { writeFile } from 'node:fs/promises';
import { startFaultProxy, type FaultProxy, type ProxyEvent } from '../helpers/fault-proxy.js';

const cli = useCli();
let proxy: FaultProxy;
let work: string;
/** Ends every exchange the proxy holds (so that closing it does not wait for them). */
const held: (() => void)[] = [];

/** Holds, until the end of the file, every request `stall` picks: the service never answers it. */
function stallWhen(stall: (e: ProxyEvent) => boolean): void {
  proxy.setHooks({ onRequest: (e) => (stall(e) ? new Promise<'drop'>((resolve) => held.push(() => resolve('drop'))) : undefined) });
}

beforeAll(async () => {
  proxy = await startFaultProxy({ target: cli.server.url, seed: 1, faults: {} });
  work = await mkdtemp(join(tmpdir(), 'reldist-timeout-'));
});

afterAll(async () => {
  for (const release of held) release();
  await proxy.close();
  await rm(work, { recursive: true, force: true });
});

describe('--timeout', () => {
  it('ends a read that hangs: exit 7, one line, safe to run again', async () => {
    stallWhen((e) => e.method === 'GET');
    const started = Date.now();
    const r = await cli.run(['release', 'get', '1', '--timeout', '1s'], { url: proxy.url });
    expect(r.code).toBe(7);
    expect(r.stderr).toBe(
      'error: timed out after 1s waiting for the service to read a release; nothing was changed on the service: safe to run again\n' +
        'hint: a longer --timeout waits longer; --timeout 0 waits forever\n',
    );
    // Generous: the point is that it does not wait for the client's own 30 s idle timeout.
    expect(Date.now() - started).toBeLessThan(20_000);
  });

  it('is a global flag: before the command too, and in --json', async () => {
    stallWhen((e) => e.method === 'GET');
    const r = await cli.run(['--timeout', '500ms', '--json', 'release', 'list'], { url: proxy.url });
    expect(r.code).toBe(7);
    expect(JSON.parse(r.stderr).error).toMatchObject({
      code: 'timed_out',
      message: expect.stringMatching(/^timed out after 500ms waiting for the service to list releases;/),
    });
  });

  it('says a change may be done, and that an edit is safe to run again', async () => {
    const release = await createRelease(cli.server, cli.server.tokens.label);
    stallWhen((e) => e.method === 'PATCH');
    const r = await cli.run(['release', 'edit', String(release.id), '--title', 'Later', '--timeout', '1s'], { url: proxy.url });
    expect(r.code).toBe(7);
    expect(r.stderr.split('\n')[0]).toMatch(
      /^error: timed out after 1s waiting for the service to edit release metadata \(which may or may not be done\); safe to run again$/,
    );
  });

  it('says a batch submit may be done, and that running it again is safe', async () => {
    const a = await createRelease(cli.server, cli.server.tokens.label);
    const b = await createRelease(cli.server, cli.server.tokens.label);
    stallWhen((e) => e.method === 'POST' && e.route === '/releases/submit');
    const r = await cli.run(['release', 'submit', String(a.id), String(b.id), '--timeout', '1s'], { url: proxy.url });
    expect(r.code).toBe(7);
    expect(r.stderr.split('\n')[0]).toBe(
      'error: timed out after 1s waiting for the service to submit up to 500 releases for review at once (or check them with dry_run) (which may or may not be done); safe to run again',
    );
  });

  it('says what an upload already did and that running it again needs a look first', async () => {
    const release = await createRelease(cli.server, cli.server.tokens.label);
    const file = join(work, 'one.wav');
    await writeWav(file, { seconds: 31 });
    stallWhen((e) => e.method === 'PUT' && e.route === '/releases/{releaseId}/tracks');
    const r = await cli.run(['track', 'upload', String(release.id), file, '--timeout', '3s'], { url: proxy.url });
    expect(r.code).toBe(7);
    const line = r.stderr.split('\n').find((l) => l.startsWith('error: '));
    expect(line).toBe(
      'error: timed out after 3s waiting for the service to replace the whole track list (which may or may not be done); ' +
        'already done: ask for an upload address for a track file, receive an audio file; check what exists (`reldist release list`) before running it again',
    );
  });

  it('lets the command clean up after itself first: the draft a create made is deleted, and the line says so', async () => {
    const audio = join(work, 'two.wav');
    await writeWav(audio, { seconds: 31 });
    const file = join(work, 'release.yaml');
    await writeFile(file, releaseYaml('TIMEOUT-1', { audio }));
    stallWhen((e) => e.route === '/uploads/{key}');
    const r = await cli.run(['release', 'create', '--file', file, '--timeout', '2s'], { url: proxy.url });
    expect(r.code).toBe(7);
    expect(r.stderr.split('\n').find((l) => l.startsWith('error: '))).toBe(
      'error: timed out after 2s waiting for the service to receive an audio file (which may or may not be done); ' +
        'already done: create a release (draft), ask for an upload address for a track file, delete a release; check what exists (`reldist release list`) before running it again',
    );
    const left = await cli.run(['release', 'list', '--catalog-number', 'TIMEOUT-1', '--json']);
    expect(JSON.parse(left.stdout)).toEqual([]);
  });

  it('refuses a bad value with one line naming the flag', async () => {
    for (const bad of ['soon', '-1s', '5 minutes']) {
      const r = await cli.run(['release', 'list', '--timeout', bad]);
      expect(r.code).toBe(2);
      expect(r.stderr.split('\n')[0]).toBe(`error: --timeout: expected a duration like 500ms, 10s, 5m or 1h, got "${bad}"`);
    }
  });

  it('0 means no bound', async () => {
    proxy.setHooks({});
    const r = await cli.run(['release', 'list', '--timeout', '0'], { url: proxy.url });
    expect(r.code, r.stderr).toBe(0);
  });
});

describe('a service that never answers', () => {
  it('is a timeout (exit 7), each retry said on stderr, not a retryable failure (6)', async () => {
    stallWhen(() => true);
    // The client's own idle timeout, at its least (1 s): every attempt waits it out.
    expect((await cli.run(['config', 'set', 'timeout', '1'])).code).toBe(0);
    try {
      const r = await cli.run(['release', 'get', '1', '--timeout', '0'], { url: proxy.url });
      expect(r.code).toBe(7);
      const lines = r.stderr.trim().split('\n');
      expect(lines.filter((l) => l.startsWith('retrying in ')).length).toBe(3);
      expect(lines.filter((l) => l.startsWith('retrying in ')).every((l) => l.endsWith(': read a release: no answer in time (ETIMEDOUT)'))).toBe(true);
      expect(lines).toContain(`error: no answer from ${proxy.url} in time: no answer for 1000 ms after 4 attempts`);
    } finally {
      await cli.run(['config', 'unset', 'timeout']);
    }
  });
});
