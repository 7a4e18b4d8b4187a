// Goldens for the data-printing commands whose other mode was not pinned elsewhere: each is run
// piped and on a terminal against the real reference service, and compared with exact text.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { transcript, useCli, writeWav, type RunResult } from './cli-harness.js';

const cli = useCli();
let work: string;
const golden = (name: string) => `../fixtures/golden/${name}.txt`;
const run = (argv: string[], o: { tty?: boolean; token?: string } = {}): Promise<RunResult> => cli.run(argv, o);
/** The transcript without what differs per run: the service's port and the temporary folders. */
const pinned = (r: RunResult) =>
  transcript(r)
    .replaceAll(cli.server.url, '<url>')
    .replaceAll(work, '<work>')
    .replace(/rd_…[\w-]{4}/g, 'rd_…<hint>');
async function both(argv: string[], name: string, expectedCode = 0, token?: string): Promise<void> {
  const piped = await run(argv, token ? { token } : {});
  expect(piped.code, piped.stderr).toBe(expectedCode);
  await expect(pinned(piped)).toMatchFileSnapshot(golden(`${name}.piped`));
  const tty = await run(argv, { tty: true, ...(token ? { token } : {}) });
  expect(tty.code, tty.stderr).toBe(expectedCode);
  await expect(pinned(tty)).toMatchFileSnapshot(golden(`${name}.tty`));
}

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'reldist-goldens-'));
  // Release 1 with one track; release 2, empty (blocked at submit).
  for (const title of ['Northern Sky', 'Blue Hour']) {
    const r = await run(['release', 'create', '--type', 'single', '--title', title, '--artist', 'Nina Vale', '--label', 'Northern Lights Records']);
    expect(r.code, r.stderr).toBe(0);
  }
  await writeWav(join(work, 'northern-sky.wav'), { seconds: 31 });
  await writeWav(join(work, 'northern-sky-remaster.wav'), { seconds: 32 });
  const up = await run(['track', 'upload', '1', join(work, 'northern-sky.wav')]);
  expect(up.code, up.stderr).toBe(0);
});
afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

describe('goldens in both modes', () => {
  it('release edit', async () => {
    await both(['release', 'edit', '2', '--genre', 'Pop'], 'release/edit-genre');
  });

  it('release submit of several releases', async () => {
    await both(['release', 'submit', '1', '2', '--dry-run'], 'release/submit-several-dry-run', 3);
  });

  it('track replace and track set', async () => {
    await both(['track', 'replace', '1', '1', join(work, 'northern-sky-remaster.wav')], 'track/replace');
    await writeFile(join(work, 'tracks.yaml'), 'tracks:\n  - id: 1\n    title: Northern Sky\n    isrc: GBNLR2600001\n');
    await both(['track', 'set', '1', '--file', join(work, 'tracks.yaml')], 'track/set-yaml');
  });

  it('label artists list and get', async () => {
    await both(['label', 'artists', 'list'], 'prefs/label-artists-list-both');
    await both(['label', 'artists', 'get', '1'], 'prefs/label-artists-get-both');
  });

  it('prefs artist', async () => {
    await both(['prefs', 'artist'], 'prefs/artist', 0, cli.server.tokens.artist);
  });

  it('auth status and config list', async () => {
    // The token comes from RELDIST_TOKEN (the harness), shown only as a masked hint.
    await both(['auth', 'status'], 'auth/status');
    await both(['config', 'list'], 'config/list');
  });
});
