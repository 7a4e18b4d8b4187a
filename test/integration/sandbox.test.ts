// `reldist sandbox …`: the review controls of a sandbox service, by id and catalog number, one
// line per release, the worst exit status; a service without the controls says so in one line.
import { describe, expect, it } from 'vitest';
import { runCli, useCli } from './cli-harness.js';
import { api, startTestServer } from '../helpers/server.js';
import { submittableRelease } from '../helpers/releases.js';

const cli = useCli();

async function inReview(overrides: Record<string, unknown> = {}): Promise<string> {
  const token = cli.server.tokens.label;
  const r = await submittableRelease(cli.server, token, overrides);
  const sub = await api(cli.server, token, 'POST', `/releases/${r.id}/submit`, {});
  if (sub.status !== 200) throw new Error(`submit: ${sub.status}`);
  return String(r.id);
}

describe('sandbox controls', () => {
  it('moves a release from review to live, by id and by catalog number', async () => {
    const id = await inReview({ catalog_number: 'SBX-001' });
    const approve = await cli.run(['sandbox', 'approve', id]);
    expect(approve.code, approve.stderr).toBe(0);
    expect(approve.stdout).toBe(`${id}\tapproved\n`);
    const deliver = await cli.run(['sandbox', 'deliver', 'SBX-001'], { tty: true });
    expect(deliver.stdout).toBe(`release ${id} (SBX-001): delivered\n`);
    const live = await cli.run(['sandbox', 'go-live', 'sbx-001', '--json']);
    expect(JSON.parse(live.stdout)).toEqual({ release_id: Number(id), catalog_number: 'SBX-001', status: 'live', error: null });
    const down = await cli.run(['sandbox', 'take-down', id]);
    expect(down.stdout).toBe(`${id}\ttaken_down\n`);
  });

  it('rejects with reason codes and notes, which the release then carries', async () => {
    const id = await inReview();
    const r = await cli.run(['sandbox', 'reject', id, '--reason', 'artwork_low_resolution', '--reason', 'metadata_style', '--message', 'Cover too small.']);
    expect(r.code, r.stderr).toBe(0);
    const got = JSON.parse((await cli.run(['release', 'get', id, '--json'])).stdout);
    expect(got.status).toBe('rejected');
    expect(got.review).toMatchObject({ codes: ['artwork_low_resolution', 'metadata_style'], notes: 'Cover too small.' });
    const none = await cli.run(['sandbox', 'reject', id]);
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/^error: --reason: give at least one reason code/);
    const bad = await cli.run(['sandbox', 'reject', id, '--reason', 'Bad Code']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--reason: "Bad Code" is not a reason code');
  });

  it('withdraws a release from review', async () => {
    const id = await inReview();
    const r = await cli.run(['sandbox', 'withdraw', id]);
    expect(r.stdout).toBe(`${id}\tdraft\n`);
  });

  it('reports each of several releases; the exit status is the worst', async () => {
    const a = await inReview();
    const b = await inReview();
    await cli.run(['sandbox', 'approve', b]);
    const r = await cli.run(['sandbox', 'approve', a, b, '--json']);
    // b is approved already: a state conflict (9), and its line says the state it is in.
    expect(r.code).toBe(9);
    const out = JSON.parse(r.stdout);
    expect(out.map((o: any) => [o.release_id, o.status])).toEqual([
      [Number(a), 'approved'],
      [Number(b), 'approved'],
    ]);
    expect(out[1].error.code).toBe('state_conflict');
    expect(JSON.parse(r.stderr).error.message).toBe('1 of 2 releases were not moved');
    const missing = await cli.run(['sandbox', 'approve', '987654']);
    expect(missing.code).toBe(5);
  });

  it('says in one line that a service without sandbox controls has none', async () => {
    const plain = await startTestServer({ sandbox: false });
    try {
      const r = await submittableRelease(plain, plain.tokens.label);
      const res = await runCli(['sandbox', 'approve', String(r.id)], { url: plain.url, token: plain.tokens.label, configDir: cli.configDir });
      expect(res.code).toBe(1);
      expect(res.stderr).toBe('error: this service has no sandbox controls (they exist only on `reldist serve --sandbox` and the embedded sandbox)\n');
    } finally {
      await plain.close();
    }
  });
});

describe('auto-review settings', () => {
  it('keeps sandbox.auto_review and sandbox.review_delay, checked', async () => {
    expect((await cli.run(['config', 'set', 'sandbox.auto_review', 'approve'])).code).toBe(0);
    expect((await cli.run(['config', 'set', 'sandbox.review_delay', '1500ms'])).code).toBe(0);
    expect((await cli.run(['config', 'get', 'sandbox.review_delay'])).stdout).toBe('1500ms\n');
    const bad = await cli.run(['config', 'set', 'sandbox.auto_review', 'maybe']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^error: sandbox.auto_review: expected one of approve, reject, live, got "maybe"\n/);
    await cli.run(['config', 'unset', 'sandbox.auto_review']);
    await cli.run(['config', 'unset', 'sandbox.review_delay']);
  });

  it('refuses a review delay without an outcome on serve', async () => {
    const r = await cli.run(['serve', '--sandbox-review-delay', '2s']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^error: --sandbox-review-delay: only with --sandbox-auto-review\n/);
    const bad = await cli.run(['serve', '--sandbox', '--sandbox-auto-review', 'approve', '--sandbox-review-delay', 'later']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--sandbox-review-delay: expected a duration');
  });
});
