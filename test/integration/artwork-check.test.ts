// `reldist artwork check`: the cover rules, offline, on real images made with sharp
// (test/helpers/images.ts): what the service would refuse at upload and what would block the submit.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Services } from '../../src/cli/context.js';
import { testImages, type TestImages } from '../helpers/images.js';
import { runCli, type RunResult } from './cli-harness.js';

let work: string;
let calls = 0;
// No service runs in this file: any attempt to reach one (or start the sandbox) is counted.
const offline: Partial<Services> = {
  client: async () => {
    calls++;
    throw new Error('artwork check must not reach the service');
  },
  session: async () => {
    calls++;
    throw new Error('artwork check must not resolve a session');
  },
};
const run = (argv: string[]): Promise<RunResult> => runCli(argv, { url: 'http://127.0.0.1:9', token: 'unused', configDir: work, services: offline });
const files: Record<string, keyof TestImages> = {
  'good.jpg': 'good',
  'small.jpg': 'tooSmall',
  'wide.jpg': 'notSquare',
  'cmyk.jpg': 'cmyk',
  'gray.png': 'grayscale',
  'deep.png': 'png16',
  'progressive.jpg': 'progressive',
  'png-named.jpg': 'pngBytes',
  'cut.jpg': 'truncated',
  'moving.gif': 'animated',
  'bomb.png': 'bomb',
  'profile.jpg': 'withProfile',
  'notes.jpg': 'notAnImage',
};

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'reldist-artwork-'));
  const images = await testImages();
  for (const [name, image] of Object.entries(files)) await writeFile(join(work, name), images[image]);
});
afterAll(async () => {
  expect(calls).toBe(0);
  await rm(work, { recursive: true, force: true });
});

async function checkOne(name: string) {
  const r = await run(['artwork', 'check', join(work, name), '--json']);
  return { r, out: JSON.parse(r.stdout)[0] };
}

describe('reldist artwork check', () => {
  it('a good cover: its facts, exit 0', async () => {
    const { r, out } = await checkOne('good.jpg');
    expect(r.code).toBe(0);
    expect(out).toMatchObject({
      format: 'jpg',
      width: 3000,
      height: 3000,
      color_space: 'rgb',
      bit_depth: 8,
      icc_profile: null,
      ok: true,
      refused: null,
      problems: [],
    });
  });

  it.each([
    ['png-named.jpg', { format: 'png', ok: true }],
    ['progressive.jpg', { format: 'jpg', progressive: true, ok: true }],
    ['profile.jpg', { icc_profile: expect.stringMatching(/P3/), ok: true }],
    ['deep.png', { bit_depth: 16, ok: true, problems: [expect.objectContaining({ code: 'artwork_bit_depth', severity: 'warning' })] }],
  ])('%s: read from its bytes', async (name, expected) => {
    const { r, out } = await checkOne(name);
    expect(r.code).toBe(0);
    expect(out).toMatchObject(expected);
  });

  it.each([
    ['small.jpg', 'artwork_too_small', '1400×1400 px: a cover must be at least 3000×3000 px'],
    ['wide.jpg', 'artwork_not_square', '3000×2000 px: a cover must be square'],
    ['cmyk.jpg', 'artwork_color_space', 'CMYK: export it as RGB'],
    ['gray.png', 'artwork_color_space', 'grayscale: export it as RGB'],
  ])('%s blocks the submit: %s, exit 3', async (name, code, message) => {
    const { r, out } = await checkOne(name);
    expect(r.code).toBe(3);
    expect(out.ok).toBe(false);
    expect(out.problems).toContainEqual(expect.objectContaining({ code, severity: 'error', message: expect.stringContaining(message) }));
  });

  it.each([
    ['cut.jpg', 'artwork_unreadable', /damaged or cut short/],
    ['moving.gif', 'artwork_animated', /animated \(2 frames\)/],
    ['bomb.png', 'artwork_too_many_pixels', /50000×50000 px/],
    ['notes.jpg', 'artwork_unreadable', /not an image/],
  ])('%s is refused as the service would: %s, exit 3', async (name, code, message) => {
    const before = process.memoryUsage().rss;
    const { r, out } = await checkOne(name);
    expect(r.code).toBe(3);
    expect(out.refused).toEqual({ code, message: expect.stringMatching(message) });
    expect(process.memoryUsage().rss - before).toBeLessThan(512 * 1024 ** 2);
  });

  it('the record in words, one per file; a missing file is exit 2 before anything is read', async () => {
    const r = await run(['artwork', 'check', join(work, 'good.jpg'), join(work, 'cmyk.jpg')]);
    expect(r.code).toBe(3);
    expect(r.stdout).toContain('Size\t3000×3000 px');
    expect(r.stdout).toContain('Result\tblocks the submit');
    expect(r.stdout).toContain('Error\tCMYK: export it as RGB');
    expect(r.stderr).toContain('1 of 2 images would be refused or block the submit');
    const missing = await run(['artwork', 'check', join(work, 'nope.jpg')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/nope\.jpg/);
  });
});
