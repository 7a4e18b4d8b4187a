// The cover from the CLI against the real service: `release create --artwork`, the release file's
// `artwork: cover.jpg`, `release edit --artwork` (each checked from the image's bytes before
// anything is sent) and `release apply` uploading the cover only when its sha256 changed
// (uploads counted by a pass-through fault proxy). Images made with sharp (test/helpers/images.ts).
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFaultProxy, type FaultProxy } from '../helpers/fault-proxy.js';
import { makeWav, sha256 } from '../helpers/audio.js';
import { testImages, type TestImages } from '../helpers/images.js';
import { releaseYaml } from '../helpers/release-yaml.js';
import { useCli } from './cli-harness.js';
import { draftFlags } from './release-fixtures.js';

const cli = useCli();
let work: string;
let images: TestImages;
let proxy: FaultProxy;
const at = (name: string) => join(work, name);

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'reldist-cover-'));
  images = await testImages();
  await writeFile(at('cover.jpg'), images.good);
  await writeFile(at('cover2.jpg'), images.progressive);
  await writeFile(at('cmyk.jpg'), images.cmyk);
  await writeFile(at('cut.jpg'), images.truncated);
  await writeFile(at('a.wav'), makeWav({ seconds: 30 }));
  proxy = await startFaultProxy({ target: cli.server.url, seed: 1, faults: {} });
});
afterAll(async () => {
  await proxy?.close();
  await rm(work, { recursive: true, force: true });
});

const releaseCount = async () => (await cli.json(['release', 'list'])).length;
const coverUploads = () => proxy.stats.byRoute['POST /releases/{releaseId}/artwork/upload-url']?.requests ?? 0;

describe('release create --artwork', () => {
  it('uploads the cover once the draft exists; the release shows the facts read from its bytes', async () => {
    const r = await cli.json(['release', 'create', ...draftFlags, '--artwork', at('cover.jpg')]);
    expect(r.artwork).toMatchObject({
      verified: true,
      filename: 'cover.jpg',
      format: 'jpg',
      width: 3000,
      height: 3000,
      color_space: 'rgb',
      sha256: sha256(images.good),
    });
  });

  it('an image the service would refuse: exit 2 naming the flag and the file, nothing created', async () => {
    const before = await releaseCount();
    const r = await cli.run(['release', 'create', ...draftFlags, '--artwork', at('cut.jpg')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^error: .*cut\.jpg: the image is damaged or cut short \(premature end of JPEG image\); upload a JPEG or PNG image\n/);
    expect(r.stderr).toMatch(/^error: --artwork .*cut\.jpg would be refused by the service; nothing was created\n/m);
    expect(await releaseCount()).toBe(before);
  });

  it('what the submit would block is a warning on a terminal, and the cover is set; --check reports it as blocking', async () => {
    const r = await cli.run(['release', 'create', ...draftFlags, '--artwork', at('cmyk.jpg')], { tty: true });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/warning: .*cmyk\.jpg: CMYK: export it as RGB \(artwork_color_space, blocks the submit\)/);
    const check = await cli.run(['release', 'create', ...draftFlags, '--artwork', at('cmyk.jpg'), '--check']);
    expect(check.code).toBe(3);
    expect(check.stdout + check.stderr).toMatch(/CMYK: export it as RGB/);
  });

  it("a release file's `artwork: cover.jpg`, relative to the file", async () => {
    const file = at('with-cover.yaml');
    await writeFile(file, `${releaseYaml('ART-0001', { audio: at('a.wav') })}artwork: cover.jpg\n`);
    const r = await cli.json(['release', 'create', '--file', file]);
    expect(r.artwork).toMatchObject({ verified: true, filename: 'cover.jpg', sha256: sha256(images.good) });
    expect(r.track_count).toBe(1);
  });
});

describe('release edit --artwork', () => {
  it('replaces the cover; a missing file is exit 2 with nothing changed', async () => {
    const created = await cli.json(['release', 'create', ...draftFlags]);
    expect(created.artwork).toBeNull();
    const edited = await cli.json(['release', 'edit', String(created.id), '--artwork', at('cover2.jpg')]);
    expect(edited.artwork).toMatchObject({ verified: true, filename: 'cover2.jpg', progressive: true });
    const missing = await cli.run(['release', 'edit', String(created.id), '--artwork', at('nope.jpg'), '--title', 'Changed']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/^error: --artwork .*nope\.jpg cannot be read; nothing was changed$/m);
    expect((await cli.json(['release', 'get', String(created.id)])).title).toBe(created.title);
  });
});

describe('release apply', () => {
  it('uploads the cover when its sha256 changed, and only then', async () => {
    const file = at('apply-cover.yaml');
    const write = (cover: string) => writeFile(file, `${releaseYaml('ART-0100', { audio: at('a.wav') })}artwork: ${cover}\n`);
    const apply = (...more: string[]) => cli.run(['release', 'apply', file, ...more], { url: proxy.url });
    await write('cover.jpg');

    const plan = await apply('--plan');
    expect(plan.code, plan.stderr).toBe(8);
    expect(plan.stdout).toMatch(/new release, 1 track; cover; delivery/);
    const first = await apply();
    expect(first.code, first.stderr).toBe(0);
    expect(coverUploads()).toBe(1);

    // The same bytes: nothing to do, nothing uploaded.
    const again = await apply();
    expect(again.code, again.stderr).toBe(0);
    expect(coverUploads()).toBe(1);
    expect((await apply('--plan')).code).toBe(0);

    // Another image under another name: planned as "cover", uploaded once.
    await write('cover2.jpg');
    const changed = await apply('--plan');
    expect(changed.code).toBe(8);
    expect(changed.stdout).toMatch(/~ ART-0100 .*cover$/m);
    expect((await apply()).code).toBe(0);
    expect(coverUploads()).toBe(2);
    expect((await findByCatalog('ART-0100')).artwork).toMatchObject({ filename: 'cover2.jpg', sha256: sha256(images.progressive) });
  });
});

async function findByCatalog(cn: string) {
  const all = await cli.json(['release', 'list']);
  const hit = all.find((r: { catalog_number: string | null }) => r.catalog_number === cn);
  return cli.json(['release', 'get', String(hit.id)]);
}
