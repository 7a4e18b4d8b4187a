// `reldist events list|tail` and `reldist release history` against the real service: the lines
// and JSON they print, the filters, --follow printing events as they happen, and their errors.
import { describe, expect, it } from 'vitest';
import { useCli, type RunResult } from './cli-harness.js';
import { api } from '../helpers/server.js';
import { createRelease } from '../helpers/releases.js';
import { startOldService } from '../helpers/old-service.js';
import { jsonLines } from '../helpers/json-lines.js';

const cli = useCli();

const eventsOf = (r: RunResult) => jsonLines(r.stdout);

describe('events list and tail', () => {
  it("lists the account's events oldest first: tab-separated when piped, JSON lines with --json, filtered by release and type", async () => {
    const token = cli.server.tokens.label;
    const a = await createRelease(cli.server, token, { catalog_number: 'EVL-0001' });
    await api(cli.server, token, 'PATCH', `/releases/${a.id}/metadata`, { title: 'Renamed' });
    const b = await createRelease(cli.server, token, { catalog_number: 'EVL-0002' });

    const all = await cli.run(['events', 'list', '--json']);
    expect(all.code, all.stderr).toBe(0);
    const events = eventsOf(all);
    const ids = events.map((e) => e.id);
    expect([...ids].sort((x, y) => x - y)).toEqual(ids);
    expect(events.filter((e) => e.release_id === a.id || e.release_id === b.id).map((e) => e.type)).toEqual([
      'release.created',
      'release.updated',
      'release.created',
    ]);

    const byRelease = await cli.run(['events', 'list', '--release', 'EVL-0001']);
    expect(byRelease.code, byRelease.stderr).toBe(0);
    const rows = byRelease.stdout
      .trim()
      .split('\n')
      .map((l) => l.split('\t'));
    expect(rows.map((r) => [r[2], r[3], r[4]])).toEqual([
      ['release.created', String(a.id), 'EVL-0001'],
      ['release.updated', String(a.id), 'EVL-0001'],
    ]);
    expect(rows[1]![6]).toBe('changed title');

    const byType = eventsOf(await cli.run(['events', 'list', '--type', 'updated', '--json']));
    expect(byType.length).toBeGreaterThan(0);
    expect(byType.every((e) => e.type === 'release.updated')).toBe(true);
    const after = eventsOf(await cli.run(['events', 'list', '--after', String(ids.at(-2)), '--json']));
    expect(after.map((e) => e.id)).toEqual([ids.at(-1)]);
  });

  it('tails the newest events, and with --follow prints new ones as they happen', async () => {
    const token = cli.server.tokens.label;
    for (let i = 0; i < 3; i++) await createRelease(cli.server, token, { title: `Tail ${i}` });
    const tail = eventsOf(await cli.run(['events', 'tail', '-n', '2', '--json']));
    expect(tail.map((e) => e.data.title)).toEqual(['Tail 1', 'Tail 2']);

    // --follow: the last one, then a release made while it follows; stopped by --timeout (exit 7).
    let made: Promise<unknown> | undefined;
    const r = await cli.run(['events', 'tail', '-n', '1', '--follow', '--json', '--timeout', '5s'], {
      onStdout: () => {
        made ??= createRelease(cli.server, token, { title: 'Followed' });
      },
    });
    await made;
    expect(r.code).toBe(7);
    expect(eventsOf(r).map((e) => e.data.title)).toEqual(['Tail 2', 'Followed']);
  });

  it('shows events in words on a terminal', async () => {
    const token = cli.server.tokens.label;
    const rel = await createRelease(cli.server, token, { catalog_number: 'EVL-TTY' });
    const r = await cli.run(['events', 'list', '--release', String(rel.id)], { tty: true });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(
      new RegExp(`^\\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}:\\d{2}Z  release ${rel.id} \\(EVL-TTY\\)  created "Northern Sky" \\(single\\)  \\(.+\\)\\n$`),
    );
  });

  it('refuses a bad --type, --after or -n naming the flag, and an unknown catalog number', async () => {
    const type = await cli.run(['events', 'list', '--type', 'exploded']);
    expect(type.code).toBe(2);
    expect(type.stderr).toMatch(/^error: --type: unknown event type "exploded"/);
    const after = await cli.run(['events', 'list', '--after', 'x']);
    expect(after.code).toBe(2);
    expect(after.stderr).toMatch(/^error: --after: expected a whole number/);
    const n = await cli.run(['events', 'tail', '-n', '0']);
    expect(n.code).toBe(2);
    expect(n.stderr).toMatch(/^error: --lines: expected a whole number from 1 to 500/);
    const missing = await cli.run(['events', 'list', '--release', 'NOPE-404']);
    expect(missing.code).toBe(5);
  });
});

describe('release history', () => {
  it('shows who changed what and when, old → new, by id or catalog number, including deletion', async () => {
    const token = cli.server.tokens.label;
    const rel = await createRelease(cli.server, token, { catalog_number: 'HIST-0042', upc: '036000291452' });
    await api(cli.server, token, 'PATCH', `/releases/${rel.id}/metadata`, { upc: '5063489000013' });
    await api(cli.server, token, 'PATCH', `/releases/${rel.id}/delivery`, { price_tier: 'front' });

    const tty = await cli.run(['release', 'history', 'HIST-0042'], { tty: true });
    expect(tty.code, tty.stderr).toBe(0);
    const lines = tty.stdout.split('\n');
    expect(lines[0]).toMatch(/Z  created "Northern Sky" \(single\)  \(.+\)$/);
    expect(lines[1]).toMatch(/Z  changed upc  \(.+\)$/);
    expect(lines[2]).toBe('    upc: 036000291452 → 5063489000013');
    expect(lines[4]).toBe('    delivery.price_tier: (none) → front');

    const piped = await cli.run(['release', 'history', String(rel.id)]);
    const upcRow = piped.stdout
      .split('\n')
      .map((l) => l.split('\t'))
      .find((c) => c[3] === 'upc');
    expect(upcRow?.slice(1)).toEqual(['release.updated', expect.any(String), 'upc', '036000291452', '5063489000013']);

    const json = await cli.json(['release', 'history', 'hist-0042']);
    expect(json.map((e: { type: string }) => e.type)).toEqual(['release.created', 'release.updated', 'release.updated']);
    expect(json[1].data.changes).toEqual([{ field: 'upc', old: '036000291452', new: '5063489000013' }]);

    // A deleted release: by its id, the deletion last.
    await cli.run(['release', 'delete', String(rel.id), '--yes']);
    const gone = await cli.json(['release', 'history', String(rel.id)]);
    expect(gone.at(-1)).toMatchObject({ type: 'release.deleted', data: { status: 'draft' } });
  });

  it('says so when the service keeps no event log', async () => {
    const rel = await createRelease(cli.server, cli.server.tokens.label);
    const old = await startOldService(cli.server.url);
    try {
      const r = await cli.run(['release', 'history', String(rel.id)], { url: old.url });
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(/^error: this service keeps no event log, so it cannot tell a release's history\n/);
    } finally {
      await old.close();
    }
  });
});
