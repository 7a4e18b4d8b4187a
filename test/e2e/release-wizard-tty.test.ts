// The `release create` wizard through a real pseudo-terminal (tmux): each field asked with
// choices from the lookups, the profile search, a summary, and nothing created before "yes";
// Ctrl-C at a prompt leaves nothing created. Every wait is bounded.
import { spawnSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { makeConfigDir } from '../integration/cli-harness.js';
import { reldist, Tty, type Target } from './cli-e2e-helpers.js';

const hasTmux = spawnSync('tmux', ['-V']).status === 0;
let server: TestServer;
let config: { dir: string; cleanup(): Promise<void> };
let dir: string;
let t: Target;
const sessions: Tty[] = [];

beforeAll(async () => {
  server = await startTestServer();
  config = await makeConfigDir();
  dir = await mkdtemp(join(tmpdir(), 'reldist-tty-'));
  t = { url: server.url, token: server.tokens.label, configDir: config.dir };
});
afterAll(async () => {
  for (const s of sessions) s.kill();
  await server?.close();
  await config?.cleanup();
  await rm(dir, { recursive: true, force: true });
});

async function releaseCount(): Promise<number> {
  const r = await reldist(t, ['release', 'list', '--json']);
  return (JSON.parse(r.stdout) as unknown[]).length;
}

test.skipIf(!hasTmux)(
  'Ctrl-C at a prompt ends the wizard with nothing created',
  async () => {
    const tty = Tty.start(`reldist-wizard-cancel-${process.pid}`, t, ['release', 'create'], dir);
    sessions.push(tty);
    await tty.waitFor('Type:');
    tty.keys('Enter');
    await tty.waitFor('Title:');
    tty.answer('Never Made');
    await tty.waitFor('Version');
    tty.keys('C-c');
    expect(await tty.exitCode()).toBe(130);
    expect(await releaseCount()).toBe(0);
  },
  60_000,
);

test.skipIf(!hasTmux)(
  'the wizard asks each field, finds the profiles, shows a summary and creates after yes',
  async () => {
    const tty = Tty.start(`reldist-wizard-${process.pid}`, t, ['release', 'create'], dir);
    sessions.push(tty);
    await tty.waitFor('Type:');
    tty.keys('Down', 'Enter'); // ep
    await tty.waitFor('Title:');
    tty.answer('Tidal Bloom');
    await tty.waitFor('Version');
    tty.answer('');
    await tty.waitFor('Primary artist');
    tty.answer('Lena Voss');
    await tty.waitFor('(another, or Enter to finish)');
    tty.answer('');
    await tty.waitFor('Featured artist');
    tty.answer('');
    await tty.waitFor('Label:');
    tty.answer(''); // the label's name is the default
    await tty.waitFor('Catalog number');
    tty.answer('');
    await tty.waitFor('Genre:');
    tty.keys('Enter');
    await tty.waitFor('Language of the metadata:');
    tty.keys('Enter'); // the label's default language
    await tty.waitFor('Explicit content:');
    tty.keys('Enter');
    await tty.waitFor('℗ line');
    tty.answer('');
    await tty.waitFor('© line');
    tty.answer('');
    await tty.waitFor('UPC/EAN');
    tty.answer('');
    await tty.waitFor('Audio file for track 1');
    tty.answer('');
    await tty.waitFor('Cover image');
    tty.answer('');
    await tty.waitFor('Release date');
    // A date not in the calendar is refused at the question, with the reason, and asked again.
    tty.answer('2027-13-01');
    await tty.waitFor('2027-13-01 is not a date in the calendar');
    tty.keys(...Array<string>(10).fill('BSpace'));
    tty.answer('2030-03-01');
    // Her saved profiles are shown, and replaced only after a yes.
    const saved = await tty.waitFor("Replace Lena Voss's saved profiles?");
    expect(saved).toContain("Lena Voss's saved profiles:\n    streaming service A: Lena Voss (cn3Vv2aLARkJ1of1D5NpI2)");
    tty.answer('y');
    await tty.waitFor("Find Lena Voss's profiles");
    tty.answer('');
    await tty.waitFor('Lena Voss on streaming service A:');
    tty.keys('Enter'); // the first match
    await tty.waitFor('Lena Voss on video service B:');
    tty.keys('Enter');
    await tty.waitFor('Lena Voss on store C:');
    tty.keys('Enter');
    const summary = await tty.waitFor('Create this release?');
    expect(summary).toContain('Title:     Tidal Bloom');
    expect(summary).toContain('Label:     Sandbox Records');
    expect(summary).toContain('Release:   2030-03-01');
    expect(summary).toMatch(/streaming service A: Lena Voss \(cn3Vv2aLARkJ1of1D5NpI2\)/);
    // Nothing exists before the answer.
    expect(await releaseCount()).toBe(0);
    tty.answer('y');
    expect(await tty.exitCode()).toBe(0);
    const created = JSON.parse((await reldist(t, ['release', 'get', '1', '--json'])).stdout);
    expect(created).toMatchObject({
      type: 'ep',
      title: 'Tidal Bloom',
      label: 'Sandbox Records',
      artists: [{ name: 'Lena Voss', role: 'primary' }],
      delivery: { release_date: '2030-03-01' },
    });
    expect(created.p_line).toMatchObject({ owner: 'Sandbox Records' });
  },
  90_000,
);
