import { resolve } from 'node:path';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { FileProblemsError, loadDataFile, parseText, validateParsed } from '../../src/cli/shared/data-file.js';
import { loadReleaseFile } from '../../src/cli/release-file/load.js';
import { ReleaseFile } from '../../src/cli/release-file/schema.js';
import { UpdateReleaseVideoRequest } from '../../src/contract/index.js';

const fixtures = 'test/fixtures/release-files';

async function problemsOf(promise: Promise<unknown>): Promise<string[]> {
  try {
    await promise;
  } catch (err) {
    if (err instanceof FileProblemsError) return err.lines;
    throw err;
  }
  throw new Error('expected the file to be refused');
}

describe('release file', () => {
  it('loads the example release with its tracks, delivery and video', async () => {
    const plan = await loadReleaseFile('examples/first-release/release.yaml');
    expect(plan.release).toMatchObject({ type: 'single', title: 'First Light', label: 'Northern Lights Records' });
    expect(plan.release).not.toHaveProperty('tracks');
    expect(plan.tracks.map((t) => t.written)).toEqual(['audio/first-light.flac', 'audio/evening-tide.flac']);
    expect(plan.tracks[0]!.path).toBe(resolve('examples/first-release/audio/first-light.flac'));
    expect(plan.tracks[1]!.fields.title).toBeUndefined();
    expect(plan.delivery).toMatchObject({ platforms: 'all', release_date: '2030-01-11' });
    expect(plan.video).toMatchObject({ enabled: true, content_id: { policy: 'monetize' } });
  });

  it('reads JSON the same way, with audio relative to the file', async () => {
    const plan = await loadReleaseFile(`${fixtures}/release.json`);
    expect(plan.release.upc).toBe('012345678905');
    expect(plan.tracks[0]!.fields).toMatchObject({ title: 'Northern Sky', isrc: 'GBNLR2600001' });
  });

  it('names every problem with its file, line and field path', async () => {
    const lines = await problemsOf(loadReleaseFile(`${fixtures}/bad.yaml`));
    const f = `${fixtures}/bad.yaml`;
    expect(lines).toEqual([
      `${f}:1: type: expected one of single, ep, album, compilation, got "lp"`,
      `${f}:12: tracks.1.title: expected text, got the number 12`,
      `${f}:13: tracks.1.explicit: expected one of explicit, not_explicit, clean, got "maybe"`,
      `${f}:15: delivery.release_date: expected a date like 2027-01-15, got "15/01/2027"`,
      `${f}:16: delivery.territories.countries.0: expected an ISO 3166-1 alpha-2 code, e.g. DE`,
      `${f}:18: video.enabled: expected true or false, got "yes please"`,
      `${f}:19: video.colour: unknown field (check its spelling)`,
    ]);
  });

  it('keeps a bare UPC as written, leading zero and all', async () => {
    const parsed = parseText('x.yaml', 'upc: 012345678905\ntracks: [{ isrc: 0123 }]\nyear: 012\n');
    expect(parsed.value).toEqual({ upc: '012345678905', tracks: [{ isrc: '0123' }], year: 12 });
  });

  it('points a missing field at its parent and says it is required', async () => {
    const lines = await problemsOf(
      Promise.resolve().then(() => {
        const parsed = parseText('r.yaml', 'type: single\nartists:\n  - role: primary\n');
        return validateParsed(parsed, ReleaseFile);
      }),
    );
    expect(lines).toContain('r.yaml:3: artists.0.name: required: expected text');
    expect(lines).toContain('r.yaml: title: required: expected text');
  });

  it('refuses audio that is missing or not WAV/FLAC/AIFF before anything is sent', async () => {
    const lines = await problemsOf(loadReleaseFile(`${fixtures}/missing-audio.yaml`));
    expect(lines).toEqual([
      `${fixtures}/missing-audio.yaml:6: tracks.0.file: no such file: audio/nowhere.flac (paths are relative to the release file)`,
      `${fixtures}/missing-audio.yaml:7: tracks.1.file: expected a WAV, FLAC or AIFF file, got "notes.txt"`,
    ]);
  });

  it('takes a track without audio or with an address for apply only, and an address only by https (http on this machine)', async () => {
    const text = `type: single
title: T
artists: [{ name: Nina Vale, role: primary }]
label: L
tracks:
  - title: No Audio Yet
  - file: "https://cdn.example/take.wav?sig=s3cr3t"
    title: By Address
  - file: "http://cdn.example/take.wav"
    title: Plain Http
`;
    const load = (allowStored: boolean) => loadReleaseFile('-', { stdin: Readable.from([text]), allowStored });
    const create = await problemsOf(load(false));
    expect(create).toEqual([
      'stdin:6: tracks.0.file: required: the audio file of the track (only `reldist release apply` takes a track without audio yet)',
      'stdin:7: tracks.1.file: an address refers to audio `reldist release apply` downloads; give the path of the audio file to create a release (or apply the file)',
      'stdin:9: tracks.2.file: http://cdn.example/take.wav: only https addresses are downloaded (http only from this machine)',
    ]);
    const apply = await problemsOf(load(true));
    expect(apply).toEqual(['stdin:9: tracks.2.file: http://cdn.example/take.wav: only https addresses are downloaded (http only from this machine)']);
    const ok = await loadReleaseFile('-', { stdin: Readable.from([text.replace('http://cdn.example', 'http://127.0.0.1:9')]), allowStored: true });
    expect(ok.tracks.map((t) => [t.absent ?? false, t.url ?? null, t.written])).toEqual([
      [true, null, '(no audio yet)'],
      [false, 'https://cdn.example/take.wav?sig=s3cr3t', 'https://cdn.example/take.wav?…'],
      [false, 'http://127.0.0.1:9/take.wav', 'http://127.0.0.1:9/take.wav'],
    ]);
  });

  it('reports a syntax error with its line', async () => {
    const lines = await problemsOf(loadReleaseFile(`${fixtures}/broken.yaml`));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(new RegExp(`^${fixtures}/broken\\.yaml:\\d+: \\(top level\\): not valid YAML or JSON: `));
  });

  it('names the flag and the file when the file cannot be read', async () => {
    await expect(loadReleaseFile('nope/release.yaml')).rejects.toThrow('--file nope/release.yaml: no such file');
  });

  it('reads a settings file from stdin', async () => {
    const value = await loadDataFile('-', '--video', UpdateReleaseVideoRequest, Readable.from(['{"enabled": false}']));
    expect(value).toEqual({ enabled: false });
    await expect(loadDataFile('-', '--video', UpdateReleaseVideoRequest, Readable.from(['enabled: 3']))).rejects.toThrow(
      'stdin:1: enabled: expected true or false, got the number 3',
    );
  });
});
