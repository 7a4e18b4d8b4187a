// POST /releases/validate, the batch form of the code checks, against the real service: the same
// verdicts as the single forms, in order; the maximum; a UPC held by another release; an
// idempotent retry; one request against the rate limit whatever the batch's size.
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { validateBatchMax } from '../../src/contract/index.js';
import { api, startTestServer, type TestServer } from '../helpers/server.js';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(async () => {
  await s.close();
});

const batch = (codes: unknown[], headers: Record<string, string> = {}) => api(s, s.tokens.label, 'POST', '/releases/validate', { codes }, headers);

/** `n` distinct valid UPC-A codes (11 digits from `i`, then the check digit). */
function upcs(n: number, from = 0): string[] {
  return Array.from({ length: n }, (_, k) => {
    const body = String(10_000_000_000 + from + k).slice(-11);
    const sum = [...body].reduce((acc, d, i) => acc + Number(d) * (i % 2 === 0 ? 3 : 1), 0);
    return body + String((10 - (sum % 10)) % 10);
  });
}

describe('POST /releases/validate', () => {
  test('answers each code as the single forms do, in the order asked', async () => {
    const codes = [
      { kind: 'upc', code: '036000291452' },
      { kind: 'isrc', code: 'us-rc1-76-07839' },
      { kind: 'upc', code: '036000291453' },
      { kind: 'isrc', code: 'USRC1760783' },
    ];
    const res = await batch(codes);
    expect(res.status).toBe(200);
    expect(res.body.data.map((r: any) => [r.kind, r.input, r.valid])).toEqual(codes.map((c, i) => [c.kind, c.code, i < 2]));
    for (const [i, c] of codes.entries()) {
      const single = await api(s, s.tokens.label, 'POST', `/releases/validate/${c.kind}`, { [c.kind]: c.code });
      const paths = (r: any) => r.problems.map((p: any) => ({ ...p, path: undefined }));
      expect({ ...res.body.data[i], problems: paths(res.body.data[i]) }).toEqual({ ...single.body, problems: paths(single.body) });
      expect(res.body.data[i].problems.every((p: any) => p.path === `codes.${i}.code`)).toBe(true);
    }
  });

  test(`takes ${validateBatchMax} codes; one more is a 422 naming the limit`, async () => {
    const full = await batch(upcs(validateBatchMax).map((code) => ({ kind: 'upc', code })));
    expect(full.status).toBe(200);
    expect(full.body.data).toHaveLength(validateBatchMax);
    expect(full.body.data.every((r: any) => r.valid)).toBe(true);

    const over = await batch(upcs(validateBatchMax + 1).map((code) => ({ kind: 'upc', code })));
    expect(over.status).toBe(422);
    expect(over.body.error.code).toBe('validation_failed');
    expect(over.body.error.fields).toEqual({ codes: [`at most ${validateBatchMax} codes per request`] });

    const empty = await batch([]);
    expect(empty.status).toBe(422);
    expect(empty.body.error.fields).toEqual({ codes: ['at least one code'] });
  });

  test('a UPC held by another release of the account is upc_in_use, naming that release; not for the release itself', async () => {
    const [held] = upcs(1, 777);
    const holder = await api(s, s.tokens.label, 'POST', '/releases', {
      type: 'single',
      title: 'Held Song',
      artists: [{ name: 'Nina Vale', role: 'primary' }],
      label: 'L',
      upc: held,
      catalog_number: 'HLD-001',
    });
    expect(holder.status).toBe(201);
    const res = await batch([
      { kind: 'upc', code: '036000291452' },
      { kind: 'upc', code: `00${held}` },
      { kind: 'upc', code: held!, release_id: holder.body.id },
    ]);
    expect(res.status).toBe(200);
    const [free, taken, own] = res.body.data;
    expect(free.valid).toBe(true);
    expect(taken.valid).toBe(false);
    expect(taken.problems).toEqual([
      expect.objectContaining({
        path: 'codes.1.code',
        code: 'upc_in_use',
        severity: 'error',
        message: `already used by your release ${holder.body.id} "Held Song" (HLD-001, draft)`,
      }),
    ]);
    expect(own).toMatchObject({ valid: true, problems: [] });
    // Another account's releases are not looked at.
    const artist = await api(s, s.tokens.artist, 'POST', '/releases/validate', { codes: [{ kind: 'upc', code: held }] });
    expect(artist.body.data[0]).toMatchObject({ valid: true, problems: [] });
  });

  test('an ISRC already on another track of the named release is isrc_duplicate', async () => {
    const rel = await api(s, s.tokens.label, 'POST', '/releases', {
      type: 'single',
      title: 'Dup',
      artists: [{ name: 'Nina Vale', role: 'primary' }],
      label: 'L',
    });
    const put = await api(s, s.tokens.label, 'PUT', `/releases/${rel.body.id}/tracks`, [{ title: 'One', isrc: 'GBAYE6700149' }]);
    expect(put.status).toBe(200);
    const trackId = put.body.tracks[0].id;
    const res = await batch([
      { kind: 'isrc', code: 'GB-AYE-67-00149', release_id: rel.body.id },
      { kind: 'isrc', code: 'GBAYE6700149', release_id: rel.body.id, track_id: trackId },
      { kind: 'isrc', code: 'GBAYE6700149' },
    ]);
    expect(res.body.data.map((r: any) => r.problems.map((p: any) => p.code))).toEqual([['isrc_duplicate'], [], []]);
  });

  test('the statements a batch runs do not grow with its size (one look-up per batch, not per code)', async () => {
    // The service runs in this process: count every statement better-sqlite3 runs.
    const probe = new Database(':memory:');
    const proto = Object.getPrototypeOf(probe.prepare('SELECT 1')) as Record<'run' | 'get' | 'all' | 'iterate', (...a: unknown[]) => unknown>;
    probe.close();
    const methods = ['run', 'get', 'all', 'iterate'] as const;
    const originals = methods.map((m) => proto[m]);
    let count = 0;
    methods.forEach((m, i) => {
      proto[m] = function (this: unknown, ...a: unknown[]) {
        count++;
        return originals[i]!.apply(this, a);
      };
    });
    const rel = await api(s, s.tokens.label, 'POST', '/releases', {
      type: 'single',
      title: 'Counted',
      artists: [{ name: 'Nina Vale', role: 'primary' }],
      label: 'L',
    });
    const statementsFor = async (n: number) => {
      const codes = upcs(n, 5000).flatMap((code) => [
        { kind: 'upc', code, release_id: rel.body.id },
        { kind: 'isrc', code: 'GBAYE6700149', release_id: rel.body.id },
      ]);
      count = 0;
      const res = await batch(codes);
      expect(res.status).toBe(200);
      return count;
    };
    try {
      // Once before counting: the first request after a commit (the release's creation) reads the
      // token generation and the due reviews again (db/commit-watch.ts); later ones do not.
      await statementsFor(1);
      const few = await statementsFor(1);
      expect(few).toBeGreaterThan(0);
      expect(await statementsFor(validateBatchMax / 2)).toBe(few);
    } finally {
      methods.forEach((m, i) => (proto[m] = originals[i]!));
    }
  });

  test("a release that is not the account's is a 404 naming the code", async () => {
    const res = await batch([
      { kind: 'upc', code: '036000291452' },
      { kind: 'upc', code: '036000291452', release_id: 999999 },
    ]);
    expect(res.status).toBe(404);
    expect(res.body.error.message).toBe('release 999999 not found (codes.1.release_id)');
  });

  test('a retry with the same Idempotency-Key replays the first answer', async () => {
    const codes = [
      { kind: 'upc', code: '036000291452' },
      { kind: 'isrc', code: 'USRC17607839' },
    ];
    const key = { 'idempotency-key': 'batch-retry-1' };
    const first = await batch(codes, key);
    const again = await batch(codes, key);
    expect(again.status).toBe(200);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
    const other = await batch([{ kind: 'upc', code: '036000291453' }], key);
    expect(other.status).toBe(422);
    expect(other.body.error.code).toBe('idempotency_key_reused');
  });
});

describe('POST /releases/validate and the rate limit', () => {
  let limited: TestServer;
  beforeAll(async () => {
    limited = await startTestServer({ rateLimit: { requests: 2, windowMs: 60_000 } });
  });
  afterAll(async () => {
    await limited.close();
  });

  test(`a batch of ${validateBatchMax} codes counts as one request`, async () => {
    const codes = upcs(validateBatchMax).map((code) => ({ kind: 'upc', code }));
    const send = () => api(limited, limited.tokens.label, 'POST', '/releases/validate', { codes });
    expect((await send()).status).toBe(200);
    expect((await send()).status).toBe(200);
    const third = await send();
    expect(third.status).toBe(429);
    expect(third.body.error.code).toBe('rate_limited');
  });
});
