// The `release create` wizard through a real pseudo-terminal (tmux): each field asked with
// choices from the lookups, the profile search, a summary, and nothing created before "yes";
// Ctrl-C at a prompt leaves nothing created. Every wait is bounded.
import { spawnSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { reldist, serveForTests, Tty, wizardDefaultsGenreToUpc, type Target } from './cli-e2e-helpers.js';

const hasTmux = spawnSync('tmux', ['-V']).status === 0;
let dir: string;
let t: Target;
const sessions: Tty[] = [];
serveForTests((target) => {
  t = target;
});

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'reldist-tty-'));
});
afterAll(async () => {
  for (const s of sessions) s.kill();
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
    await wizardDefaultsGenreToUpc(tty); // the language: the label's default
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

test.skipIf(!hasTmux)(
  'at 80 columns: a refused answer is shown refused, a catalog number in use is named at its prompt, a past date asks, a confirmation takes only y/n',
  async () => {
    const held = await reldist(t, [
      'release',
      'create',
      '--type',
      'single',
      '--title',
      'Held Here',
      '--artist',
      'Ola Hart',
      '--label',
      'NLR',
      '--catalog-number',
      'TTY-07',
      '--json',
    ]);
    expect(held.code, held.stderr).toBe(0);
    const heldId = (JSON.parse(held.stdout) as { id: number }).id;
    const before = await releaseCount();
    const tty = Tty.start(`reldist-wizard-80-${process.pid}`, t, ['release', 'create'], dir, { width: 80, cwd: dir });
    sessions.push(tty);
    await tty.waitFor('Type:');
    tty.keys('Enter');
    await tty.waitFor('Title:');
    // Refused: the line stays a question (?) with the reason under it; only the accepted value gets the tick.
    tty.answer('Tide (Official Video)');
    let screen = await tty.waitFor('> "Tide (Official Video)" contains "Official"');
    expect(screen).toContain('? Title: Tide (Official Video)');
    expect(screen).not.toContain('✔ Title');
    tty.keys('C-u');
    tty.answer('Tide');
    await tty.waitFor('Version');
    tty.answer('');
    await tty.waitFor('Primary artist');
    tty.answer('');
    await tty.waitFor('> a release needs at least one primary artist');
    tty.answer('Ola Hart');
    await tty.waitFor('(another, or Enter to finish)');
    tty.answer('');
    await tty.waitFor('Featured artist');
    tty.answer('');
    await tty.waitFor('Label:');
    tty.answer('');
    await tty.waitFor('Catalog number');
    // Taken (compared as the service compares them): which release, and the commands that update it.
    tty.answer('tty-07');
    screen = await tty.waitFor(`> catalog number tty-07 is already release ${heldId} "Held Here" (draft)`);
    expect(screen).toContain('`reldist release edit cat:tty-07 …` or `reldist release apply FILE`');
    tty.keys('C-u');
    tty.answer('');
    await wizardDefaultsGenreToUpc(tty);
    await tty.waitFor('Audio file for track 1');
    tty.answer('missing.wav');
    await tty.waitFor('> no such file: missing.wav (paths are relative to the current folder)');
    tty.keys('C-u');
    tty.answer('');
    await tty.waitFor('Cover image');
    tty.answer('');
    await tty.waitFor('Release date');
    tty.answer('2024-01-05');
    await tty.waitFor('2024-01-05 is in the past: stores will show it as the original date; keep it?');
    tty.answer('n');
    // Asked again.
    await tty.waitFor(/^\? Release date/m);
    tty.answer('2030-05-01');
    await tty.waitFor("Find Ola Hart's profiles");
    tty.answer('n');
    await tty.waitFor('Create this release?');
    // Stray text is not a yes: refused with a word, asked again.
    tty.answer('sure');
    await tty.waitFor('> answer y or n (Enter for yes)');
    expect(await releaseCount()).toBe(before);
    tty.answer('YES');
    expect(await tty.exitCode()).toBe(0);
    screen = tty.screen();
    expect(screen).toContain('✔ Title: Tide\n');
    expect(screen).toContain('✔ Catalog number (how `release apply` finds it again; Enter for none):\n');
    expect(screen).toContain('✔ Audio file for track 1 (WAV, FLAC or AIFF; Enter to add tracks later):\n');
    // inquirer breaks the 81-character answered line itself, at the terminal's width.
    expect(screen).toMatch(/keep it\?\s+No\n/);
    expect(screen).toContain('✔ Create this release? Yes\n');
    expect(screen).not.toMatch(/✔ .*(Official Video|tty-07|missing\.wav|sure)/);
    const created = JSON.parse((await reldist(t, ['release', 'list', '--json'])).stdout) as { title: string; id: number }[];
    const tide = created.find((r) => r.title === 'Tide');
    expect(tide).toBeDefined();
    const got = JSON.parse((await reldist(t, ['release', 'get', String(tide!.id), '--json'])).stdout);
    expect(got).toMatchObject({ catalog_number: null, delivery: { release_date: '2030-05-01' } });
  },
  90_000,
);

test.skipIf(!hasTmux)(
  '--timeout does not count the time a person takes at a prompt: 4 s at one under --timeout 2s still completes',
  async () => {
    const tty = Tty.start(`reldist-wizard-slow-${process.pid}`, t, ['release', 'create', '--timeout', '2s'], dir, { width: 80, cwd: dir });
    sessions.push(tty);
    await tty.waitFor('Type:');
    tty.keys('Enter');
    await tty.waitFor('Title:');
    // A person reading: twice the bound, at one prompt.
    await new Promise((r) => setTimeout(r, 4000));
    tty.answer('Slow Reader');
    for (const [prompt, answer] of [
      ['Version', ''],
      ['Primary artist', 'Mira Sol'],
      ['(another, or Enter to finish)', ''],
      ['Featured artist', ''],
      ['Label:', ''],
      ['Catalog number', ''],
    ] as const) {
      await tty.waitFor(prompt);
      tty.answer(answer);
    }
    await wizardDefaultsGenreToUpc(tty);
    for (const prompt of ['Audio file for track 1', 'Cover image', 'Release date']) {
      await tty.waitFor(prompt);
      tty.answer('');
    }
    await tty.waitFor("Find Mira Sol's profiles");
    tty.answer('n');
    await tty.waitFor('Create this release?');
    tty.answer('y');
    expect(await tty.exitCode()).toBe(0);
    expect(tty.screen()).toContain('Created release');
    expect(tty.screen()).not.toContain('timed out');
  },
  90_000,
);
