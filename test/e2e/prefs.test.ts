// `reldist prefs …` and `reldist label artists …`, end to end and piped.
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { makeConfigDir } from '../integration/cli-harness.js';
import { reldist, type Target } from './cli-e2e-helpers.js';

let server: TestServer;
let config: { dir: string; cleanup(): Promise<void> };
let t: Target;
beforeAll(async () => {
  server = await startTestServer();
  config = await makeConfigDir();
  t = { url: server.url, token: server.tokens.label, configDir: config.dir };
});
afterAll(async () => {
  await server?.close();
  await config?.cleanup();
});

test('label settings from a YAML file on stdin, then the artists as rows', async () => {
  const r = await reldist(t, ['prefs', 'label', '--file', '-'], { stdin: 'default_genre: Jazz\nartists:\n  - name: Mara Quinn\n' });
  expect(r.code, r.stderr).toBe(0);
  expect(r.stdout).toMatch(/^Default genre\tJazz$/m);
  const list = await reldist(t, ['label', 'artists', 'list']);
  expect(list.stdout).toMatch(/^\d+\tMara Quinn\tlabel\t$/m);
});

test('remove asks for --yes when piped', async () => {
  const r = await reldist(t, ['label', 'artists', 'remove', '1']);
  expect(r.code).toBe(2);
  expect(r.stderr).toBe('error: artist 1: not removed: confirmation needed\nhint: pass --yes to remove without a prompt\n');
  expect((await reldist(t, ['label', 'artists', 'remove', '1', '--yes'])).code).toBe(0);
});
