// `auth login` at a real terminal (tmux): the token is asked with a hidden prompt, never echoed,
// checked with /me and saved.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { Tty } from './cli-e2e-helpers.js';

const hasTmux = spawnSync('tmux', ['-V']).status === 0;
let server: TestServer;
let dir: string;
const sessions: Tty[] = [];

beforeAll(async () => {
  server = await startTestServer();
  dir = mkdtempSync(join(tmpdir(), 'reldist-auth-tty-'));
});
afterAll(async () => {
  for (const s of sessions) s.kill();
  await server?.close();
  rmSync(dir, { recursive: true, force: true });
});

test.skipIf(!hasTmux)(
  'the token prompt hides what is typed; login saves the checked token',
  async () => {
    // Empty RELDIST_BASE_URL/RELDIST_TOKEN: nothing comes from the environment.
    const target = { url: '', token: '', configDir: join(dir, 'cfg') };
    const tty = Tty.start(`reldist-auth-login-${process.pid}`, target, ['auth', 'login', '--base-url', server.url], dir);
    sessions.push(tty);
    await tty.waitFor('Paste your API token');
    tty.answer(server.tokens.label);
    const screen = await tty.waitFor(/Logged in to/);
    expect(await tty.exitCode()).toBe(0);
    expect(screen).not.toContain(server.tokens.label);
    const saved = JSON.parse(readFileSync(join(dir, 'cfg', 'config.json'), 'utf8'));
    expect(saved.profiles.default).toMatchObject({ base_url: server.url, token: server.tokens.label });
  },
  60_000,
);
