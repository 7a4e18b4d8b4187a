// `reldist release …` end to end, piped: the built binary against the real reference service.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { expect, test } from 'vitest';
import { BIN, ROOT, cliEnv, reldist, serveForTests, type Target } from './cli-e2e-helpers.js';

let t: Target;
serveForTests((target) => (t = target));

test('the Quick start: the example release is created, uploaded and submitted in one command', async () => {
  const r = await reldist(t, ['release', 'create', '--file', 'examples/first-release/release.yaml', '--submit', '--json']);
  expect(r.code, r.stderr).toBe(0);
  const out = JSON.parse(r.stdout);
  expect(out.release).toMatchObject({ id: 1, status: 'in_review', track_count: 2 });
  expect(out.submit).toMatchObject({ release_id: 1, outcome: 'submitted', status: 'in_review', sandbox: false });
  // Piped stderr carries no progress bars or escapes.
  expect(r.stderr).not.toMatch(/\x1b|\r/);
});

test('piped output is tab-separated rows without colour, dates in ISO 8601', async () => {
  const r = await reldist(t, ['release', 'list']);
  expect(r.code).toBe(0);
  expect(r.stdout).toMatch(/^1\tin_review\tsingle\tFirst Light\tNina Vale\t2\t\d{12,13}\t\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z\n$/);
  const tracks = await reldist(t, ['track', 'list', '1']);
  expect(tracks.stdout.split('\n')[0]).toMatch(/^1\t\d+\tFirst Light\t[A-Z]{2}[A-Z0-9]{3}\d{7}\t0:32\tfirst-light\.flac\tready$/);
});

test('--no-input never prompts: a missing field is a usage error naming the flag', async () => {
  const r = await reldist(t, ['release', 'create', '--no-input', '--title', 'X']);
  expect(r.code).toBe(2);
  expect(r.stdout).toBe('');
  expect(r.stderr).toMatch(/^error: missing --type, --artist, --label: /);
});

test('a blocked submit exits 3 with one row per problem; --json keeps one JSON value on stdout', async () => {
  const created = await reldist(t, ['release', 'create', '--type', 'single', '--title', 'Draft', '--artist', 'Nina Vale', '--label', 'L', '--json']);
  const id = String(JSON.parse(created.stdout).id);
  const r = await reldist(t, ['release', 'submit', id]);
  expect(r.code).toBe(3);
  const rows = r.stdout.trimEnd().split('\n');
  expect(rows.length).toBeGreaterThan(1);
  for (const row of rows) expect(row.split('\t').slice(0, 2)).toEqual([id, 'blocked']);
  expect(r.stderr).toBe(
    `error: release ${id} was not submitted: ${rows.length} blocking problems\nhint: fix the problems listed and submit again; --dry-run checks without submitting\n`,
  );
  const j = await reldist(t, ['release', 'submit', id, '--json']);
  expect(j.code).toBe(3);
  expect(JSON.parse(j.stdout).problems).toHaveLength(rows.length);
  expect(JSON.parse(j.stderr.trim())).toMatchObject({ error: { code: 'validation_failed' } });
});

test('a release file read from stdin; delete needs --yes when piped', async () => {
  const yaml = 'type: single\ntitle: From Stdin\nartists: [{ name: Nina Vale, role: primary }]\nlabel: L\n';
  const r = await reldist(t, ['release', 'create', '--file', '-', '--json'], { stdin: yaml });
  expect(r.code, r.stderr).toBe(0);
  const id = String(JSON.parse(r.stdout).id);
  const refused = await reldist(t, ['release', 'delete', id]);
  expect(refused.code).toBe(2);
  expect(refused.stderr).toContain('hint: pass --yes to delete without a prompt');
  expect((await reldist(t, ['release', 'delete', id, '--yes'])).code).toBe(0);
  expect((await reldist(t, ['release', 'get', id])).code).toBe(5);
});

test('several releases go as one batch; a long report that exits 3 reaches a pipe whole', async () => {
  const ids: string[] = [];
  for (let i = 0; i < 400; i++) {
    const res = await fetch(`${t.url}/releases`, {
      method: 'POST',
      headers: { authorization: `Bearer ${t.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ type: 'single', title: `Batch ${i}`, artists: [{ name: 'Nina Vale', role: 'primary' }], label: 'L' }),
    });
    ids.push(String(((await res.json()) as { id: number }).id));
  }
  // A reader that is late: the pipe is full when the command is done, and it must wait for it.
  // (Not spawnSync: the service answering it runs in this process.)
  const late = await promisify(execFile)(
    'sh',
    ['-c', '{ "$0" "$@"; echo "exit $?" >&2; } | { sleep 1; cat; }', process.execPath, BIN, 'release', 'submit', '--dry-run', ...ids],
    {
      env: cliEnv(t),
      cwd: ROOT,
      encoding: 'utf8',
      maxBuffer: 1 << 26,
      timeout: 25_000,
    },
  );
  expect(late.stderr).toBe('error: 400 of 400 releases would not go through\nhint: fix the problems listed and check again\nexit 3\n');
  const rows = late.stdout.split('\n');
  expect(rows.pop()).toBe('');
  expect([...new Set(rows.map((row) => row.split('\t')[0]))]).toEqual(ids);
  expect(rows.every((row) => row.split('\t')[1] === 'blocked')).toBe(true);
});
