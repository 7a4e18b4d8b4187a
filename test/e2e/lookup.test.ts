// `reldist lookup …` and `reldist me`, end to end and piped.
import { expect, test } from 'vitest';
import { reldist, serveForTests, type Target } from './cli-e2e-helpers.js';

let t: Target;
serveForTests((target) => (t = target));

test('lookups print one row per entry when piped, and one JSON array with --json', async () => {
  const genres = await reldist(t, ['lookup', 'genres']);
  expect(genres.code).toBe(0);
  expect(genres.stdout.split('\n')).toContain('Electronic');
  const countries = await reldist(t, ['lookup', 'countries']);
  expect(countries.stdout).toMatch(/^DE\tGermany$/m);
  const languages = JSON.parse((await reldist(t, ['lookup', 'languages', '--json'])).stdout);
  expect(languages).toContainEqual(expect.objectContaining({ code: 'en' }));
  const platforms = await reldist(t, ['lookup', 'platforms']);
  expect(platforms.stdout).toMatch(/^store_c\tStore C\tartist profiles$/m);
});

test('me: label<TAB>value lines; the camelCase User with --json; exit 4 with a refused token', async () => {
  const me = await reldist(t, ['me']);
  expect(me.stdout).toMatch(/^Kind\tlabel$/m);
  expect(me.stdout).toMatch(/^Created\t\d{4}-\d{2}-\d{2}T/m);
  expect(JSON.parse((await reldist(t, ['me', '--json'])).stdout)).toHaveProperty('label_name', 'Sandbox Records');
  const refused = await reldist({ ...t, token: 'rd_wrong' }, ['me']);
  expect(refused.code).toBe(4);
  expect(refused.stderr.split('\n')[0]).toMatch(/^error: /);
});
