// `reldist artist search|resolve`, end to end and piped.
import { expect, test } from 'vitest';
import { reldist, serveForTests, type Target } from './cli-e2e-helpers.js';

let t: Target;
serveForTests((target) => (t = target));

test('search prints platform, id, name, followers, url rows', async () => {
  const r = await reldist(t, ['artist', 'search', 'Lena Voss', '--platform', 'streaming_a', '--limit', '1']);
  expect(r.code, r.stderr).toBe(0);
  expect(r.stdout).toBe('streaming_a\tcn3Vv2aLARkJ1of1D5NpI2\tLena Voss\t954\thttps://open.streaming-a.example/artist/cn3Vv2aLARkJ1of1D5NpI2\n');
});

test('resolve turns a pasted link into one profile; a track link is refused in one line', async () => {
  const r = await reldist(t, ['artist', 'resolve', 'https://music.store-c.example/de/artist/lena-voss/617376772?l=en', '--json']);
  expect(JSON.parse(r.stdout)).toMatchObject({ platform: 'store_c', id: '617376772', name: 'Lena Voss' });
  const bad = await reldist(t, ['artist', 'resolve', 'https://open.streaming-a.example/album/4uLU6hMCjMI75M1A2tKUQC']);
  expect(bad.code).not.toBe(0);
  expect(bad.stderr.split('\n').filter((l) => l.startsWith('error:'))).toHaveLength(1);
});
