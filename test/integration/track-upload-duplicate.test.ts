// The same audio (same sha256) added twice to one release is never silent: `track upload` asks at
// a terminal and otherwise refuses (exit 2) naming the track it repeats, --allow-duplicate adds it;
// a release file with one recording on two tracks is refused naming both; the submit refuses it.
import { copyFile, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useCli } from './cli-harness.js';

const cli = useCli();
const { run, json } = cli;
let work: string;
let id: string;
const audio = 'examples/first-release/audio';
const titles = async () => (await json<{ title: string }[]>(['track', 'list', id])).map((t) => t.title);

/** Runs at a terminal whose person answers `answer` to every confirmation; returns what was asked. */
async function atTerminal(argv: string[], answer: boolean) {
  const asked: string[] = [];
  return { ...(await run(argv, { tty: true, person: { answer, asked } })), asked };
}

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'reldist-dup-'));
  const made = await json<{ id: number }>([
    'release',
    'create',
    '--type',
    'ep',
    '--title',
    'Harbour Lights',
    '--artist',
    'Nina Vale',
    '--label',
    'Northern Lights Records',
  ]);
  id = String(made.id);
  expect((await run(['track', 'upload', id, `${audio}/first-light.flac`])).code).toBe(0);
  // The same recording under another name, as a master exported twice.
  await copyFile(`${audio}/first-light.flac`, join(work, 'master-v2.flac'));
});
afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

describe('track upload of audio the release already has', () => {
  it('without a terminal: refused (exit 2) naming the track it repeats, nothing uploaded', async () => {
    const copy = join(work, 'master-v2.flac');
    const r = await run(['track', 'upload', id, copy]);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(
      `error: ${copy}: the same audio (sha256) as track 1 "First Light" of release ${id}; nothing was uploaded\n` +
        'hint: a release holds each recording once (submit refuses the same audio on two tracks); pass --allow-duplicate to add it anyway\n',
    );
    expect(await titles()).toEqual(['First Light']);
  });

  it('the same file twice in one command is refused too, each repeat named (--json: one line per file)', async () => {
    const tide = `${audio}/evening-tide.flac`;
    const r = await run(['track', 'upload', id, tide, tide, '--json']);
    expect(r.code).toBe(2);
    const lines = r.stderr
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines).toEqual([
      { file: tide, code: 'audio_duplicate', message: `the same audio (sha256) as ${tide} (given before it)` },
      {
        error: expect.objectContaining({
          code: 'audio_duplicate',
          message: `${tide}: the same audio (sha256) as ${tide} (given before it); nothing was uploaded`,
        }),
      },
    ]);
    expect(await titles()).toEqual(['First Light']);
  });

  it('at a terminal: asked; no leaves the release as it was (exit 0), yes adds it', async () => {
    const copy = join(work, 'master-v2.flac');
    const no = await atTerminal(['track', 'upload', id, copy], false);
    expect([no.code, no.stderr]).toEqual([0, 'cancelled: nothing was changed\n']);
    expect(no.asked).toEqual([`${copy} has the same audio (sha256) as track 1 "First Light" of release ${id}; add it as new tracks anyway?`]);
    expect(await titles()).toEqual(['First Light']);
    const yes = await atTerminal(['track', 'upload', id, copy], true);
    expect(yes.code, yes.stderr).toBe(0);
    expect(await titles()).toEqual(['First Light', 'First Light']);
  });

  it('--allow-duplicate adds it without asking; the submit then refuses the same audio on two tracks', async () => {
    const r = await run(['track', 'upload', id, join(work, 'master-v2.flac'), '--allow-duplicate']);
    expect(r.code, r.stderr).toBe(0);
    expect(await titles()).toEqual(['First Light', 'First Light', 'First Light']);
    const check = await run(['release', 'submit', id, '--dry-run', '--json']);
    expect(check.code).toBe(3);
    const problems = JSON.parse(check.stdout).problems as { code: string; path: string; message: string }[];
    expect(problems.filter((p) => p.code === 'audio_duplicate')).toEqual([
      expect.objectContaining({ path: 'tracks.1.file', message: expect.stringMatching(/^same audio on tracks 1 and 2 \(sha256 [0-9a-f]{12}…\)$/) }),
      expect.objectContaining({ path: 'tracks.2.file', message: expect.stringMatching(/^same audio on tracks 1 and 3 /) }),
    ]);
  });
});

describe('a release file with one recording on two tracks', () => {
  it('is refused before anything is sent, naming both tracks and the line', async () => {
    const file = join(work, 'twice.yaml');
    const first = join(process.cwd(), audio, 'first-light.flac');
    await writeFile(
      file,
      `type: ep\ntitle: Twice\nartists: [{ name: Nina Vale, role: primary }]\nlabel: Northern Lights Records\ncatalog_number: DUP-1\ntracks:\n  - file: ${first}\n  - file: ${join(work, 'master-v2.flac')}\n`,
    );
    const r = await run(['release', 'create', '--file', file]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      `${file}:8: tracks.1.file: track 2 (${join(work, 'master-v2.flac')}) has the same audio as track 1 (${first}): a release holds each recording once`,
    );
    expect((await run(['release', 'get', 'DUP-1'])).code).toBe(5);
  });
});
