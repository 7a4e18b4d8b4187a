// With nothing configured the built CLI runs against the embedded sandbox in the user's data
// folder (not under CI: see ci-sandbox.test.ts): a note on every command, data kept between
// commands, two commands at the same moment both fine.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanEnv, runBin } from './sandbox-helpers.js';

const home = mkdtempSync(join(tmpdir(), 'reldist-e2e-sandbox-'));
const dataDir = join(home, 'data');
const env = cleanEnv({ HOME: home, RELDIST_DATA_DIR: dataDir });
afterAll(() => rmSync(home, { recursive: true, force: true }));
const note = `note: no service configured, so this uses the local sandbox (data in ${dataDir}); for a real service run \`reldist auth login --base-url <url>\` or set RELDIST_BASE_URL and RELDIST_TOKEN\n`;

const create = (title: string) =>
  runBin(
    [
      'api',
      'POST',
      '/releases',
      '-f',
      'type=single',
      '-f',
      `title=${title}`,
      '-f',
      'artists[0][name]=Nina Vale',
      '-f',
      'artists[0][role]=primary',
      '-f',
      'label=Sandbox Records',
    ],
    env,
  );

describe('embedded sandbox', () => {
  it('answers as the seeded label account and says so on stderr, every time', async () => {
    const first = await runBin(['api', 'GET', '/me'], env);
    expect(first.code).toBe(0);
    expect(JSON.parse(first.stdout)).toMatchObject({ kind: 'label' });
    expect(first.stderr).toBe(note);

    const second = await runBin(['api', 'GET', '/me'], env);
    expect(second.code).toBe(0);
    expect(second.stderr).toBe(note);
    expect((await runBin(['api', 'GET', '/me', '--quiet'], env)).stderr).toBe('');
  });

  it('keeps data between commands', async () => {
    const made = await create('Persisted');
    expect(made.code).toBe(0);
    const id = JSON.parse(made.stdout).id;
    const got = await runBin(['api', 'GET', `/releases/${id}`], env);
    expect(got.code).toBe(0);
    expect(JSON.parse(got.stdout).title).toBe('Persisted');
  });

  it('runs two commands at the same moment', async () => {
    const [a, b] = await Promise.all([create('Same moment A'), create('Same moment B')]);
    expect([a.code, b.code, a.stderr, b.stderr]).toEqual([0, 0, note, note]);
    const list = await runBin(['api', 'GET', '/releases', '-F', 'perPage=100', '--paginate'], env);
    const titles = JSON.parse(list.stdout).map((r: { title: string }) => r.title);
    expect(titles).toEqual(expect.arrayContaining(['Same moment A', 'Same moment B', 'Persisted']));
  });

  it('auth status describes the sandbox without showing the token', async () => {
    const r = await runBin(['auth', 'status', '--json'], env);
    expect(r.code).toBe(0);
    const s = JSON.parse(r.stdout);
    expect(s).toMatchObject({ base_url_source: 'sandbox', token_source: 'sandbox', sandbox_data_dir: dataDir, token_valid: true });
    expect(s.token_hint).toMatch(/^rd_…/);
  });
});
