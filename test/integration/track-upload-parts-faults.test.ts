// `track upload` in parts through the seeded fault proxy (test/helpers/fault-proxy.ts): the part
// requests, the completion and the status asked are dropped before or after the service saw them,
// or answered 503. Every run ends, exit 0, with the track's sha256 the file's (the completion is
// retried too: it answers the same when asked again). Seeds fixed, a few runs: bounded. The same
// file each run, to the same release: --allow-duplicate.
import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startFaultProxy, type FaultProxy } from '../helpers/fault-proxy.js';
import { useCli, writeWav } from './cli-harness.js';

const cli = useCli();
let work: string;
let file: string;
let releaseId: number;

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'reldist-parts-faults-'));
  file = join(work, 'faults.wav');
  // 60 s of 44.1 kHz 16-bit stereo: 10.6 MB, 11 parts of 1 MiB.
  await writeWav(file, { seconds: 60 });
  releaseId = (await cli.json(['release', 'create', '--type', 'album', '--title', 'Faults', '--artist', 'Nina Vale', '--label', 'Northern Lights Records'])).id;
});
afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

for (const seed of [3, 11, 29]) {
  it(`seed ${seed}: 30% of the upload's requests fail, the file arrives whole`, { timeout: 60_000 }, async () => {
    const proxy: FaultProxy = await startFaultProxy({
      target: cli.server.url,
      seed,
      faults: { dropBefore: 0.1, dropAfter: 0.1, unavailable: 0.1 },
      match: (_method, path) => path.startsWith('/uploads/'),
    });
    try {
      const r = await cli.run(['track', 'upload', String(releaseId), file, '--json', '--allow-duplicate'], {
        url: proxy.url,
        env: { RELDIST_UPLOAD_PART_SIZE: '1MiB', RELDIST_UPLOAD_CONNECTIONS: '3' },
      });
      expect(r.code, r.stderr).toBe(0);
      const faults = proxy.stats.byDecision.dropBefore + proxy.stats.byDecision.dropAfter + proxy.stats.byDecision.unavailable;
      expect(faults).toBeGreaterThan(0);
      const track = JSON.parse(r.stdout).at(-1);
      expect(track.file.sha256).toBe(
        createHash('sha256')
          .update(await readFile(file))
          .digest('hex'),
      );
    } finally {
      await proxy.close();
    }
  });
}

it("a part answered 503 more times than the client's own retries is sent again, not the upload failed", { timeout: 60_000 }, async () => {
  // Every part request refused until 4 in a row have been (the client's own attempts), then one let through.
  const proxy: FaultProxy = await startFaultProxy({
    target: cli.server.url,
    seed: 1,
    faults: { unavailable: 1 },
    maxConsecutiveFaults: 4,
    match: (method, path) => method === 'PUT' && /\/parts\//.test(path),
  });
  try {
    const r = await cli.run(['track', 'upload', String(releaseId), file, '--json', '--allow-duplicate'], {
      url: proxy.url,
      env: { RELDIST_UPLOAD_PART_SIZE: '4MiB', RELDIST_UPLOAD_CONNECTIONS: '1' },
    });
    expect(r.code, r.stderr).toBe(0);
    expect(proxy.stats.byDecision.unavailable).toBeGreaterThanOrEqual(4);
    expect(JSON.parse(r.stdout).at(-1).file.sha256).toBe(
      createHash('sha256')
        .update(await readFile(file))
        .digest('hex'),
    );
  } finally {
    await proxy.close();
  }
});
