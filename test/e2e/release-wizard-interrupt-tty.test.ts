// Ctrl-C in the `release create` wizard after the draft exists, through a real pseudo-terminal
// (tmux, 80 columns), with a fault proxy holding the upload and then the draft's deletion: a second Ctrl-C
// while the draft is being deleted lets the deletion finish (no draft left) and says so; a third
// stops it and names the draft that remains and the command that deletes it. Either way, and when
// the service cannot be reached at the create, the answers are kept in a release file named on
// the screen (in the folder the wizard runs in). Every wait is bounded.
import { readFile } from 'node:fs/promises';
import { spawnSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { startFaultProxy, type FaultProxy, type HookVerdict } from '../helpers/fault-proxy.js';
import { makeConfigDir, writeWav } from '../integration/cli-harness.js';
import { reldist, Tty, wizardDefaultsGenreToUpc, type Target } from './cli-e2e-helpers.js';

const hasTmux = spawnSync('tmux', ['-V']).status === 0;
let server: TestServer;
let proxy: FaultProxy;
let config: { dir: string; cleanup(): Promise<void> };
let dir: string;
let t: Target;
const sessions: Tty[] = [];
/** Requests the proxy holds: the first one each `pick` matches waits until released. */
interface Hold {
  pick(method: string, route: string): boolean;
  taken: boolean;
  arrived: Promise<void>;
  arrive(): void;
  gate: Promise<HookVerdict>;
  /** undefined: forward it now; 'drop': cut it off, the service never sees it. */
  release(v: HookVerdict): void;
}
const holds: Hold[] = [];
/** Requests the proxy cuts off, every time, while the test says so. */
let cutOff: ((method: string, route: string) => boolean) | undefined;

function hold(pick: Hold['pick']): Hold {
  const h = { pick, taken: false } as Hold;
  h.arrived = new Promise<void>((resolve) => (h.arrive = resolve));
  h.gate = new Promise<HookVerdict>((resolve) => (h.release = resolve));
  holds.push(h);
  return h;
}

beforeAll(async () => {
  server = await startTestServer();
  proxy = await startFaultProxy({
    target: server.url,
    seed: 1,
    faults: {},
    onRequest: (e) => {
      if (cutOff?.(e.method, e.route)) return 'drop';
      const h = holds.find((x) => !x.taken && x.pick(e.method, e.route));
      if (!h) return undefined;
      h.taken = true;
      h.arrive();
      return h.gate;
    },
  });
  config = await makeConfigDir();
  dir = await mkdtemp(join(tmpdir(), 'reldist-tty-interrupt-'));
  await writeWav(join(dir, 'one.wav'), { seconds: 31 });
  t = { url: proxy.url, token: server.tokens.label, configDir: config.dir };
});
afterAll(async () => {
  for (const s of sessions) s.kill();
  for (const h of holds) h.release('drop');
  await proxy?.close();
  await server?.close();
  await config?.cleanup();
  await rm(dir, { recursive: true, force: true });
});

/** The releases as the service has them (not through the proxy). */
async function releaseIds(): Promise<number[]> {
  const r = await reldist({ ...t, url: server.url }, ['release', 'list', '--json']);
  return (JSON.parse(r.stdout) as { id: number }[]).map((x) => x.id);
}

function startWizard(name: string): Tty {
  const tty = Tty.start(`${name}-${process.pid}`, t, ['release', 'create'], dir, { width: 80, cwd: dir });
  sessions.push(tty);
  return tty;
}

/** Answers the wizard up to "Create this release?" with one audio file, and says yes. */
async function walkWizard(tty: Tty, title: string): Promise<void> {
  await tty.waitFor('Type:');
  tty.keys('Enter');
  await tty.waitFor('Title:');
  tty.answer(title);
  await tty.waitFor('Version');
  tty.answer('');
  await tty.waitFor('Primary artist');
  tty.answer('Lena Voss');
  await tty.waitFor('(another, or Enter to finish)');
  tty.answer('');
  await tty.waitFor('Featured artist');
  tty.answer('');
  await tty.waitFor('Label:');
  tty.answer('');
  await tty.waitFor('Catalog number');
  tty.answer('');
  await wizardDefaultsGenreToUpc(tty);
  await tty.waitFor('Audio file for track 1');
  tty.answer(join(dir, 'one.wav'));
  await tty.waitFor('Title of track 1');
  tty.answer('');
  await tty.waitFor('Composer');
  tty.answer('');
  await tty.waitFor('Audio file for track 2');
  tty.answer('');
  await tty.waitFor('Cover image');
  tty.answer('');
  await tty.waitFor('Release date');
  tty.answer('');
  await tty.waitFor("Replace Lena Voss's saved profiles?");
  tty.answer(''); // no: keep them
  await tty.waitFor('Create this release?');
  tty.answer('y');
}

const isUpload = (m: string, route: string) => m === 'PUT' && route === '/uploads/{key}';
const isDelete = (m: string, route: string) => m === 'DELETE' && route === '/releases/{releaseId}';

test.skipIf(!hasTmux)(
  'a second Ctrl-C while the draft is deleted lets the deletion finish: no draft is left',
  async () => {
    const upload = hold(isUpload);
    const deletion = hold(isDelete);
    const tty = startWizard('reldist-wizard-2c');
    await walkWizard(tty, 'Second Press');
    await upload.arrived;
    const [id] = await releaseIds();
    expect(id).toBeDefined();
    tty.keys('C-c');
    await deletion.arrived;
    tty.keys('C-c');
    await tty.waitFor(`still deleting the draft release ${id}; Ctrl-C again to stop and leave it`);
    deletion.release(undefined);
    expect(await tty.exitCode()).toBe(130);
    const screen = joined(tty.screen());
    expect(screen).toContain(`error: interrupted: the draft release ${id} was deleted, nothing was kept`);
    expect(await releaseIds()).toEqual([]);
    upload.release('drop');
    // Ctrl-C asks nothing more: the answers are written, and the file named with what goes on from it.
    expect(screen).toContain('✓ Saved your answers to second-press.yaml');
    expect(screen).toContain('hint: your answers are in second-press.yaml: `reldist release create --file second-press.yaml` creates the release from them');
    const saved = await readFile(join(dir, 'second-press.yaml'), 'utf8');
    expect(saved).toMatch(/^title: Second Press$/m);
    expect(saved).toMatch(/file: one\.wav/);
  },
  90_000,
);

test.skipIf(!hasTmux)(
  'a third Ctrl-C stops the deletion and names the draft left and the command that deletes it',
  async () => {
    const upload = hold(isUpload);
    const deletion = hold(isDelete);
    const tty = startWizard('reldist-wizard-3c');
    await walkWizard(tty, 'Third Press');
    await upload.arrived;
    const [id] = await releaseIds();
    tty.keys('C-c');
    await deletion.arrived;
    tty.keys('C-c');
    await tty.waitFor(`still deleting the draft release ${id}`);
    tty.keys('C-c');
    expect(await tty.exitCode()).toBe(130);
    const command = `reldist release delete ${id} --yes`;
    expect(tty.screen()).toContain(`error: interrupted: the draft release ${id} remains; delete it with \`${command}\``);
    // The held deletion never reaches the service: the draft is there, and the command named removes it.
    deletion.release('drop');
    upload.release('drop');
    expect(await releaseIds()).toEqual([id]);
    const removed = await reldist({ ...t, url: server.url }, command.split(' ').slice(1));
    expect(removed.code, removed.stderr).toBe(0);
    expect(await releaseIds()).toEqual([]);
  },
  90_000,
);

test.skipIf(!hasTmux)(
  'the service unreachable at the create: the answers are offered as a file, written on yes, and named',
  async () => {
    cutOff = (m, route) => m === 'POST' && route === '/releases';
    try {
      const tty = startWizard('reldist-wizard-offline');
      await walkWizard(tty, 'Cut Off');
      await tty.waitFor('Save your answers to cut-off.yaml (a release file)? (Y/n)');
      tty.answer('y');
      expect(await tty.exitCode()).not.toBe(0);
      const screen = joined(tty.screen());
      expect(screen).toContain('✓ Saved your answers to cut-off.yaml');
      expect(screen).toMatch(/hint: .*your answers are in cut-off\.yaml: `reldist release create --file cut-off\.yaml` creates the release from them/);
    } finally {
      cutOff = undefined;
    }
    expect(await releaseIds()).toEqual([]);
    // The file makes the release the wizard could not.
    const made = await reldist({ ...t, url: server.url }, ['release', 'create', '--file', join(dir, 'cut-off.yaml')]);
    expect(made.code, made.stderr).toBe(0);
  },
  90_000,
);

/** The screen with the lines reldist wrapped at 80 columns (continued, indented) joined back. */
function joined(screen: string): string {
  return screen.replace(/\n {2}(?=\S)/g, ' ');
}
