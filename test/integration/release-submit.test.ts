// `reldist release submit` against the real reference service: blocking problems grouped by
// field, --dry-run, several releases at once and the exit status of each outcome.
import { beforeAll, describe, expect, it } from 'vitest';
import { transcript, useCli } from './cli-harness.js';
import { createReleases } from './release-fixtures.js';

const cli = useCli();
const golden = (name: string) => `../fixtures/golden/release/${name}.txt`;
const { run, json } = cli;

beforeAll(async () => {
  await createReleases(run);
});

describe('release submit', () => {
  it('shows every blocking problem grouped by field and exits 3 (piped, terminal)', async () => {
    const piped = await run(['release', 'submit', '2']);
    expect(piped.code).toBe(3);
    await expect(transcript(piped)).toMatchFileSnapshot(golden('submit-blocked.piped'));
    const tty = await run(['release', 'submit', '2'], { tty: true });
    expect(tty.code).toBe(3);
    await expect(transcript(tty)).toMatchFileSnapshot(golden('submit-blocked.tty'));
    expect((await json(['release', 'get', '2'])).status).toBe('draft');
  });

  it('checks with --dry-run without submitting', async () => {
    const dry = await run(['release', 'submit', '5', '--dry-run'], { tty: true });
    expect(dry.code).toBe(0);
    expect(dry.stdout).toMatch(/^release 5: ready to submit \(dry run: /);
    expect((await json(['release', 'get', '5'])).status).toBe('draft');
  });

  it('reports each of several releases; the exit status is the worst', async () => {
    const r = await run(['release', 'submit', '5', '2', '999']);
    expect(r.code).toBe(5);
    await expect(transcript(r)).toMatchFileSnapshot(golden('submit-several.piped'));
    expect((await json(['release', 'get', '5'])).status).toBe('in_review');
    const two = await run(['release', 'submit', '2', '3', '--json']);
    expect(two.code).toBe(3);
    const outcomes = JSON.parse(two.stdout);
    expect(outcomes.map((o: any) => [o.release_id, o.outcome])).toEqual([
      [2, 'blocked'],
      [3, 'blocked'],
    ]);
    // --json: the error too is one JSON object, on stderr.
    expect(JSON.parse(two.stderr).error.message).toBe('2 of 2 releases were not submitted');
  });

  it('re-submitting a release already in review exits 0 and says so', async () => {
    const tty = await run(['release', 'submit', '5'], { tty: true });
    expect(tty.code).toBe(0);
    expect(tty.stdout).toBe('release 5: already in review, nothing to do\n');
    expect(tty.stderr).toBe('');
    const piped = await run(['release', 'submit', '5']);
    expect([piped.code, piped.stdout]).toEqual([0, '5\talready_in_review\t\t\t\t\t\n']);
    const one = await json(['release', 'submit', '5']);
    expect(one).toMatchObject({ release_id: 5, outcome: 'already_in_review', status: 'in_review', sandbox: false, error: null });
    expect((await json(['release', 'get', '5'])).status).toBe('in_review');
  });

  it('sends several at once yet answers in the order given, a release named twice the same', async () => {
    const ids = ['3', '2', '999', '3', '2', '4'];
    const r = await run(['release', 'submit', ...ids, '--dry-run', '--json']);
    const outcomes: { release_id: number; outcome: string }[] = JSON.parse(r.stdout);
    expect(outcomes.map((o) => o.release_id)).toEqual(ids.map(Number));
    expect(outcomes[2]!.outcome).toBe('failed');
    expect([outcomes[3]!.outcome, outcomes[4]!.outcome]).toEqual([outcomes[0]!.outcome, outcomes[1]!.outcome]);
  });

  it('takes --message (or its hidden other name --notes) up to the bound of the contract and names the field past it', async () => {
    // Within the bound the CLI sends the body without checking it again (no zod); the service takes it.
    const within = await run(['release', 'submit', '2', '--dry-run', '--message', 'n'.repeat(2000), '--json']);
    expect([within.code, JSON.parse(within.stdout).outcome]).toEqual([3, 'blocked']);
    const past = await run(['release', 'submit', '2', '--dry-run', '--notes', 'n'.repeat(2001)]);
    expect(past.code).toBe(2);
    expect(past.stderr).toMatch(/^error: .*notes: .*2000 characters\n/);
  });

  it('a dry run of a release in review says so and exits 9 (state conflict): nothing to check', async () => {
    // Release 4 was submitted when it was made.
    const tty = await run(['release', 'submit', '4', '--dry-run'], { tty: true });
    expect([tty.code, tty.stdout, tty.stderr]).toEqual([
      9,
      'release 4: in review: nothing to check or submit\n',
      'error: release 4 was not checked: it is in review: nothing to check or submit\n',
    ]);
    const one = await run(['release', 'submit', '4', '--dry-run', '--json']);
    expect(one.code).toBe(9);
    expect(JSON.parse(one.stdout)).toEqual({
      release_id: 4,
      outcome: 'conflict',
      status: 'in_review',
      sandbox: false,
      message: 'in review: nothing to check or submit',
      problems: [],
      error: { code: 'state_conflict', message: 'in review: nothing to check or submit' },
    });
    expect(JSON.parse(one.stderr).error.code).toBe('state_conflict');
    // Among others (through the batch endpoint), the same outcome and the worst code.
    const several = await run(['release', 'submit', '3', '4', '--dry-run', '--json']);
    expect(several.code).toBe(9);
    expect(JSON.parse(several.stdout).map((o: { outcome: string; status: string }) => [o.outcome, o.status])).toEqual([
      ['blocked', 'draft'],
      ['conflict', 'in_review'],
    ]);
  });

  it('reports a release that cannot be submitted in its state: exit 9, its state in --json', async () => {
    expect((await run(['sandbox', 'approve', '5'])).code).toBe(0);
    const r = await run(['release', 'submit', '5']);
    expect([r.code, r.stdout]).toEqual([9, '5\tconflict\t\terror\tstate_conflict\tapproved: only a draft can be submitted\t\n']);
    expect(r.stderr).toBe('error: release 5 was not submitted: it is approved: only a draft can be submitted\n');
    const one = await run(['release', 'submit', '5', '--json']);
    expect(one.code).toBe(9);
    expect(JSON.parse(one.stdout)).toMatchObject({ release_id: 5, outcome: 'conflict', status: 'approved', sandbox: false, error: { code: 'state_conflict' } });
    expect((await json(['release', 'get', '5'])).status).toBe('approved');
  });

  it('exits with the worst item: not found (5) over a state conflict (9) over blocked (3)', async () => {
    // 5 is approved (above), 2 a draft with blocking problems, 9999 names no release.
    const cases: [string[], number][] = [
      [['5', '2'], 9],
      [['2', '9999'], 5],
      [['5', '9999'], 5],
      [['2', '5', '2'], 9],
    ];
    for (const [ids, code] of cases) {
      const r = await run(['release', 'submit', ...ids, '--json']);
      expect([ids, r.code]).toEqual([ids, code]);
      const lines: { release_id: unknown; status: unknown }[] = JSON.parse(r.stdout);
      expect(lines.map((o) => o.release_id)).toEqual(ids.map(Number));
      expect(lines.map((o) => o.status)).toEqual(ids.map((id) => (id === '5' ? 'approved' : id === '2' ? 'draft' : null)));
    }
  });

  it('an edit of a release in review and a delete of a live one exit 9 (state conflict)', async () => {
    const edit = await run(['release', 'edit', '4', '--title', 'Another']);
    expect(edit.code).toBe(9);
    expect(edit.stderr).toMatch(/^error: the release is in review \(status in_review\): its metadata cannot be edited/);
    expect((await json(['release', 'get', '4'])).title).not.toBe('Another');
    for (const step of ['approve', 'deliver', 'go-live']) expect((await run(['sandbox', step, '4'])).code).toBe(0);
    const del = await run(['release', 'delete', '4', '--yes', '--json']);
    expect(del.code).toBe(9);
    expect(JSON.parse(del.stderr).error).toMatchObject({ code: 'state_conflict' });
    expect((await json(['release', 'get', '4'])).status).toBe('live');
  });
});
