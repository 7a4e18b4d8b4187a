// `reldist release list|get|delete` against the real reference service, on the releases the
// create tests make: goldens for both output modes, paging, confirmations.
import { beforeAll, describe, expect, it } from 'vitest';
import { transcript, useCli } from './cli-harness.js';
import { createReleases } from './release-fixtures.js';

const cli = useCli();
const golden = (name: string) => `../fixtures/golden/release/${name}.txt`;
const { run, json } = cli;

beforeAll(async () => {
  await createReleases(run);
});

describe('release list and get', () => {
  it('lists in both modes and as one JSON array', async () => {
    await expect(transcript(await run(['release', 'list', '--status', 'draft']))).toMatchFileSnapshot(golden('list-draft.piped'));
    await expect(transcript(await run(['release', 'list'], { tty: true }))).toMatchFileSnapshot(golden('list.tty'));
    const all = await json<any[]>(['release', 'list']);
    expect(all.map((r) => r.id)).toEqual([5, 4, 3, 2, 1]);
  });

  it('walks every page with --all into one array', async () => {
    const all = await json<any[]>(['release', 'list', '--all', '--per-page', '2']);
    expect(all.map((r) => r.id)).toEqual([5, 4, 3, 2, 1]);
    const page = await json<any[]>(['release', 'list', '--page', '2', '--per-page', '2']);
    expect(page.map((r) => r.id)).toEqual([3, 2]);
    const all2 = await run(['release', 'list', '--all', '--per-page', '2', '--json']);
    expect(all2.stderr).toBe('');
    const bad = await run(['release', 'list', '--per-page', '500']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^error: --per-page: expected a whole number from 1 to 100, got "500"\n/);
    const status = await run(['release', 'list', '--status', 'published']);
    expect(status.stderr).toMatch(/^error: --status: expected one of draft, in_review, approved, rejected, delivered, live, taken_down, got "published"\n/);
  });

  it('says on stderr, piped, on a terminal and with --json, how many releases a page left out and how to get them', async () => {
    const more = 'showing 2 of 5 releases (page 1 of 3); --page 2 for the next page, --per-page 100 for bigger pages, --all for every release\n';
    for (const o of [{}, { tty: true }]) {
      const r = await run(['release', 'list', '--per-page', '2'], o);
      expect(r.stderr).toBe(more);
      expect(r.stdout.trim().split('\n').length).toBe(o.tty ? 3 : 2);
    }
    const js = await run(['release', 'list', '--per-page', '2', '--json']);
    expect(JSON.parse(js.stdout)).toHaveLength(2);
    expect(js.stderr).toBe(more);
    const last = await run(['release', 'list', '--per-page', '2', '--page', '3']);
    expect(last.stderr).toBe('showing 1 of 5 releases (page 3 of 3); --per-page 100 for bigger pages, --all for every release\n');
    expect((await run(['release', 'list', '--per-page', '2', '--quiet'])).stderr).toBe('');
    expect((await run(['release', 'list'])).stderr).toBe('');
  });

  it('shows one release (piped, terminal with its tracks)', async () => {
    await expect(transcript(await run(['release', 'get', '5']))).toMatchFileSnapshot(golden('get.piped'));
    await expect(transcript(await run(['release', 'get', '5'], { tty: true }))).toMatchFileSnapshot(golden('get.tty'));
    const missing = await run(['release', 'get', '999']);
    expect(missing.code).toBe(5);
    expect(missing.stderr).toMatch(/^error: release 999 not found \(request req_[\w-]+\)\n$/);
    // Not an id, so a catalog number (looked up in a query, never a path): none has it.
    const bad = await run(['release', 'get', '../me']);
    expect(bad.code).toBe(5);
    expect(bad.stderr).toMatch(/^error: no release with catalog number "\.\.\/me"\n/);
  });
});

describe('release delete', () => {
  it('needs --yes without a terminal, with a hint', async () => {
    const r = await run(['release', 'delete', '3']);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('error: release 3: not deleted: confirmation needed\nhint: pass --yes to delete without a prompt\n');
    expect((await json(['release', 'get', '3'])).id).toBe(3);
  });

  it('deletes with --yes', async () => {
    const r = await run(['release', 'delete', '3', '--yes']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('');
    const missing = await run(['release', 'get', '3']);
    expect(missing.code).toBe(5);
    const again = await run(['release', 'delete', '3', '--yes', '--json']);
    expect(again.code).toBe(5);
    expect(JSON.parse((await run(['release', 'delete', '2', '--yes', '--json'])).stdout)).toEqual({ message: expect.any(String) });
  });

  it("cannot see another account's releases", async () => {
    const r = await run(['release', 'get', '1'], { token: cli.server.tokens.artist });
    expect(r.code).toBe(5);
  });
});
