// `reldist release withdraw`: a release in review back to a draft on the service, so that a typo
// seen after the submit can be fixed and the release submitted again.
import { describe, expect, it } from 'vitest';
import { useCli } from './cli-harness.js';

const cli = useCli();

describe('release withdraw', () => {
  it('takes a release in review back to a draft; fixed, it is submitted again', async () => {
    const created = await cli.json(['release', 'create', '--file', 'examples/first-release/release.yaml', '--submit']);
    const id = String(created.release.id);
    expect(created.release.status).toBe('in_review');
    expect((await cli.run(['release', 'edit', id, '--title', 'First Lihgt'])).code).toBe(9);

    const w = await cli.run(['release', 'withdraw', 'NLR-0001', '--json']);
    expect(w.code, w.stderr).toBe(0);
    expect(JSON.parse(w.stdout)).toMatchObject({ id: created.release.id, status: 'draft', submitted_at: null });
    expect((await cli.run(['release', 'edit', id, '--title', 'First Light'])).code).toBe(0);

    // Run again (a lost answer, a second try): already a draft, which is where it was meant to be.
    const again = await cli.run(['release', 'withdraw', id], { tty: true });
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toBe(`release ${id} (NLR-0001) is already a draft: nothing to withdraw\n`);

    const submitted = await cli.run(['release', 'submit', id]);
    expect(submitted.code, submitted.stderr).toBe(0);
    expect((await cli.json(['release', 'get', id])).status).toBe('in_review');
  });

  it('an approved release cannot be withdrawn: exit 9 naming its state, nothing changed', async () => {
    const created = await cli.json(['release', 'create', '--file', 'examples/first-release/release.yaml', '--catalog-number', 'NLR-0009', '--submit']);
    const id = String(created.release.id);
    expect((await cli.run(['sandbox', 'approve', id])).code).toBe(0);
    const r = await cli.run(['release', 'withdraw', id]);
    expect(r.code).toBe(9);
    expect(r.stderr).toMatch(/^error: the release is approved \(status approved\): withdraw is possible only from in_review/);
    expect((await cli.json(['release', 'get', id])).status).toBe('approved');
  });
});
