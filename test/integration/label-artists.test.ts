// `reldist label artists list|get|remove` against the real reference service.
import { beforeAll, describe, expect, it } from 'vitest';
import { transcript, useCli } from './cli-harness.js';

const cli = useCli();
const golden = (name: string) => `../fixtures/golden/prefs/${name}.txt`;
const { run } = cli;
const json = (argv: string[], token?: string) => cli.json(argv, token ? { token } : {});

beforeAll(async () => {
  // The label's artists as the `prefs label` tests leave them: Kai Moreno added, to get a new
  // profile on store_c.
  expect((await run(['prefs', 'label', '--default-genre', 'Electronic', '--add-artist', 'Kai Moreno'])).code).toBe(0);
  const [kai] = (await json(['prefs', 'label', '--search', 'kai moreno'])).artists;
  const label = `artists:\n  - id: ${kai.id}\n    name: Kai Moreno\n    platforms:\n      - { platform: store_c, mode: new }\n`;
  expect((await run(['prefs', 'label', '--file', '-'], { stdin: label })).code).toBe(0);
  // Releases crediting Lena Voss (1) twice and Åsa Lindqvist (3) once, by id: the list counts them.
  const credit = (name: string, artist_id: number, role = 'primary') => ({ name, artist_id, role });
  for (const [title, artists] of [
    ['Northern Sky', [credit('Lena Voss', 1)]],
    ['Harbor Lights', [credit('Lena Voss', 1), credit('Åsa Lindqvist', 3, 'featuring')]],
  ] as const) {
    const body = JSON.stringify({ type: 'single', title, label: 'Sandbox Records', artists });
    const made = await run(['api', 'POST', '/releases', '--input', '-'], { stdin: body });
    expect(made.code, made.stderr).toBe(0);
  }
});

describe('label artists', () => {
  it('lists and gets (piped, terminal)', async () => {
    await expect(transcript(await run(['label', 'artists', 'list']))).toMatchFileSnapshot(golden('label-artists-list.piped'));
    await expect(transcript(await run(['label', 'artists', 'get', '1'], { tty: true }))).toMatchFileSnapshot(golden('label-artists-get.tty'));
    expect((await run(['label', 'artists', 'get', '999'])).code).toBe(5);
  });

  it('counts the releases each artist is on (a column, and release_count with --json)', async () => {
    const listed = (await json(['label', 'artists', 'list'])) as { name: string; release_count: number }[];
    expect(Object.fromEntries(listed.map((a) => [a.name, a.release_count]))).toMatchObject({ 'Lena Voss': 2, 'Åsa Lindqvist': 1, 'Kai Moreno': 0 });
    const r = await run(['label', 'artists', 'list'], { tty: true, columns: 200 });
    expect(r.stdout.split('\n')[0]).toMatch(/^ID\s+NAME\s+RELEASES\s+SOURCE\s+PLATFORMS$/);
    expect(r.stdout).toMatch(/\n1\s+Lena Voss\s+2\s+label\s/);
  });

  it('removes with --yes only, when not on a terminal', async () => {
    const refused = await run(['label', 'artists', 'remove', '2']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toBe('error: artist 2: not removed: confirmation needed\nhint: pass --yes to remove without a prompt\n');
    const r = await run(['label', 'artists', 'remove', '2', '--yes', '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ message: expect.any(String) });
    expect((await run(['label', 'artists', 'get', '2'])).code).toBe(5);
  });

  it('names a wrong action', async () => {
    const r = await run(['label', 'artists', 'delete', '2']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^error: unknown command 'delete'/);
  });
});
