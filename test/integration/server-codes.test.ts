// Codes the service assigns at submit are new codes: never one the user already typed onto
// another release (that one names another recording or product).
import { afterAll, beforeAll, expect, test } from 'vitest';
import { isrcRegistrantFor } from '../../src/server/store/users.js';
import { submittableRelease } from '../helpers/releases.js';
import { api, startTestServer, type TestServer } from '../helpers/server.js';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(async () => {
  await s.close();
});

test('an assigned ISRC is not one already on another release of the user', async () => {
  const token = s.tokens.artist;
  const me = (await api(s, token, 'GET', '/me')).body;
  const yy = String(new Date().getUTCFullYear() % 100).padStart(2, '0');
  // The first code of the user's sandbox range, typed by hand onto an older release.
  const typed = `ZZ${isrcRegistrantFor(me.id)}${yy}00001`;
  const older = await submittableRelease(s, token, { title: 'Older Song' });
  const put = await api(s, token, 'PUT', `/releases/${older.id}/tracks`, [{ id: older.tracks[0].id, title: 'Older Song', isrc: typed }]);
  expect(put.body.tracks[0].isrc).toBe(typed);

  const fresh = await submittableRelease(s, token, { title: 'Fresh Song' });
  const res = await api(s, token, 'POST', `/releases/${fresh.id}/submit`, {});
  expect(res.status).toBe(200);
  const assigned = res.body.release.tracks[0].isrc;
  expect(assigned).toMatch(/^ZZ/);
  expect(assigned).not.toBe(typed);
});
