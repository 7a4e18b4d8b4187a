// `reldist prefs …` and `reldist label artists …`, end to end and piped.
import { expect, test } from 'vitest';
import { reldist, serveForTests, type Target } from './cli-e2e-helpers.js';

let t: Target;
serveForTests((target) => (t = target));

test('label settings from a YAML file on stdin, then the artists as rows', async () => {
  const r = await reldist(t, ['prefs', 'label', '--file', '-'], { stdin: 'default_genre: Jazz\nartists:\n  - name: Mara Quinn\n' });
  expect(r.code, r.stderr).toBe(0);
  expect(r.stdout).toMatch(/^Default genre\tJazz$/m);
  const list = await reldist(t, ['label', 'artists', 'list']);
  expect(list.stdout).toMatch(/^\d+\tMara Quinn\t0\tlabel\t$/m);
});

test('remove asks for --yes when piped', async () => {
  const r = await reldist(t, ['label', 'artists', 'remove', '1']);
  expect(r.code).toBe(2);
  expect(r.stderr).toBe('error: artist 1: not removed: confirmation needed\nhint: pass --yes to remove without a prompt\n');
  expect((await reldist(t, ['label', 'artists', 'remove', '1', '--yes'])).code).toBe(0);
});
