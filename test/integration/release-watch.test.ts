// `reldist release watch` against the real reference service: waiting for a review made
// concurrently with `reldist sandbox`, rejections with their reasons, timeouts, catalog numbers,
// conditional requests (304s) and the sandbox's auto-review end to end.
import { describe, expect, it } from 'vitest';
import { runCli, useCli, type RunResult } from './cli-harness.js';
import { api, startTestServer, type TestServer } from '../helpers/server.js';
import { submittableRelease } from '../helpers/releases.js';
import { startFaultProxy } from '../helpers/fault-proxy.js';
import { startOldService } from '../helpers/old-service.js';
import { jsonLines } from '../helpers/json-lines.js';

const cli = useCli();

/** A release in review (submitted through the API), with an optional catalog number. */
async function inReview(s: TestServer = cli.server, overrides: Record<string, unknown> = {}): Promise<{ id: string }> {
  const token = s.tokens.label;
  const r = await submittableRelease(s, token, overrides);
  const sub = await api(s, token, 'POST', `/releases/${r.id}/submit`, {});
  if (sub.status !== 200) throw new Error(`submit: ${sub.status} ${JSON.stringify(sub.body)}`);
  return { id: String(r.id) };
}

const lines = (r: RunResult) => jsonLines(r.stdout);

describe('release watch', () => {
  it('waits until a release is approved by a reviewer acting meanwhile', async () => {
    const { id } = await inReview();
    let approving: Promise<RunResult> | undefined;
    const watching = cli.run(['release', 'watch', id, '--json', '--interval', '1s', '--timeout', '20s'], {
      // Approve once the watch has seen the release in review.
      onStdout: () => {
        approving ??= cli.run(['sandbox', 'approve', id]);
      },
    });
    const r = await watching;
    expect(r.code, r.stderr).toBe(0);
    expect((await approving)?.code).toBe(0);
    const events = lines(r);
    expect(events.map((e) => [e.status, e.previous])).toEqual([
      ['in_review', null],
      ['approved', 'in_review'],
    ]);
    expect(events[1]).toMatchObject({ release_id: Number(id), review: null });
    expect(events[1].at).toMatch(/^\d{4}-\d{2}-\d{2}T/);
  });

  it("exits 3 on a rejection and prints the reviewer's codes and notes", async () => {
    const { id } = await inReview();
    const rej = await cli.run(['sandbox', 'reject', id, '--reason', 'artwork_low_resolution,audio_clipping', '--message', 'The cover is 1400 px.']);
    expect(rej.code, rej.stderr).toBe(0);
    const r = await cli.run(['release', 'watch', id, '--for', 'approved']);
    expect(r.code).toBe(3);
    expect(r.stderr).toContain('artwork_low_resolution, audio_clipping');
    expect(r.stderr).toContain('The cover is 1400 px.');
    expect(r.stderr).toMatch(/error: release \d+ was rejected/);
    // Piped without --json: one tab-separated line per change.
    expect(r.stdout.split('\t').slice(2, 4)).toEqual(['rejected', '']);
  });

  it('exits 7 when the timeout passes first', async () => {
    const { id } = await inReview();
    const r = await cli.run(['release', 'watch', id, '--timeout', '1s', '--interval', '1s']);
    expect(r.code).toBe(7);
    expect(r.stderr).toMatch(/timed out after 1s waiting for release \d+ \(in review\) to be reviewed/);
  });

  it('takes catalog numbers, and names one it cannot find (exit 5)', async () => {
    const { id } = await inReview(cli.server, { catalog_number: 'WATCH-001' });
    await cli.run(['sandbox', 'approve', 'WATCH-001']);
    const r = await cli.run(['release', 'watch', 'watch-001', '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(lines(r)[0]).toMatchObject({ release_id: Number(id), catalog_number: 'WATCH-001', status: 'approved' });
    const missing = await cli.run(['release', 'watch', 'NOPE-404']);
    expect(missing.code).toBe(5);
    expect(missing.stderr).toContain('no release with catalog number "NOPE-404"');
  });

  it('exits 1 when the state cannot be reached, and at once', async () => {
    const draft = await submittableRelease(cli.server, cli.server.tokens.label);
    const r = await cli.run(['release', 'watch', String(draft.id)]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/cannot be reviewed: it is a draft/);
  });

  it('waits on the event log: one read of the release, long polls of GET /events, and a read again only when an event of it comes', async () => {
    const { id } = await inReview();
    const other = await inReview();
    const asked: string[] = [];
    const proxy = await startFaultProxy({
      target: cli.server.url,
      seed: 1,
      faults: {},
      onAnswered: (e) => {
        asked.push(`${e.method} ${e.route} ${e.status}`);
      },
    });
    let acting: Promise<unknown> | undefined;
    try {
      const r = await cli.run(['release', 'watch', id, '--json', '--interval', '1s', '--timeout', '20s'], {
        url: proxy.url,
        // Once the watch saw the release: another release's change, then this one's approval.
        onStdout: () => {
          acting ??= (async () => {
            // Longer than --interval: a watch that polled would read the release again meanwhile.
            await new Promise((done) => setTimeout(done, 2500));
            await cli.run(['sandbox', 'approve', other.id]);
            await cli.run(['sandbox', 'approve', id]);
          })();
        },
      });
      await acting;
      expect(r.code, r.stderr).toBe(0);
      expect(lines(r).map((e) => e.status)).toEqual(['in_review', 'approved']);
      const reads = asked.filter((a) => a.startsWith('GET /releases/{releaseId} '));
      // The first read, and one after the approval's event: never a poll of the release.
      expect(reads).toEqual(['GET /releases/{releaseId} 200', 'GET /releases/{releaseId} 200']);
      expect(asked.filter((a) => a.startsWith('GET /events ')).length).toBeGreaterThanOrEqual(2);
    } finally {
      await proxy.close();
    }
  });

  it('exits 7 on the feed too when the timeout passes first, without going past it', async () => {
    const { id } = await inReview();
    const t0 = Date.now();
    const r = await cli.run(['release', 'watch', id, '--timeout', '2s']);
    expect(r.code).toBe(7);
    expect(r.stderr).toMatch(/timed out after 2s waiting for release \d+ \(in review\) to be reviewed/);
    // Bounded by the timeout (plus a margin for a loaded machine), not by a 25 s long poll.
    expect(Date.now() - t0).toBeLessThan(15_000);
  });

  it('against a service without an event log: polls with the last ETag (an unchanged release costs a 304), same outcomes', async () => {
    const { id } = await inReview();
    const old = await startOldService(cli.server.url);
    try {
      const r = await cli.run(['release', 'watch', id, '--timeout', '2s', '--interval', '1s'], { url: old.url });
      expect(r.code).toBe(7);
      expect(old.seen.filter((x) => x === 'GET /events')).toHaveLength(1);
      const reads = old.seen.filter((x) => x === `GET /releases/${id}`);
      expect(reads.length).toBeGreaterThanOrEqual(2);
      // Each read after the first asked with If-None-Match: counted from the service's answers.
      const statuses: number[] = [];
      const proxy = await startFaultProxy({
        target: old.url,
        seed: 1,
        faults: {},
        onAnswered: (e) => {
          if (e.method === 'GET' && e.route === '/releases/{releaseId}') statuses.push(e.status);
        },
      });
      try {
        const again = await cli.run(['release', 'watch', id, '--timeout', '2s', '--interval', '1s'], { url: proxy.url });
        expect(again.code).toBe(7);
        expect(statuses[0]).toBe(200);
        expect(statuses.length).toBeGreaterThanOrEqual(2);
        expect(statuses.slice(1).every((s) => s === 304)).toBe(true);
      } finally {
        await proxy.close();
      }
      // An approval made meanwhile is seen by polling, exit 0; a rejection exits 3 as on the feed.
      let approving: Promise<RunResult> | undefined;
      const w = await cli.run(['release', 'watch', id, '--json', '--interval', '1s', '--timeout', '20s'], {
        url: old.url,
        onStdout: () => {
          approving ??= cli.run(['sandbox', 'approve', id]);
        },
      });
      expect(w.code, w.stderr).toBe(0);
      expect((await approving)?.code).toBe(0);
      expect(lines(w).map((e) => e.status)).toEqual(['in_review', 'approved']);
      const rejected = await inReview();
      await cli.run(['sandbox', 'reject', rejected.id, '--reason', 'audio_clipping']);
      const rej = await cli.run(['release', 'watch', rejected.id], { url: old.url });
      expect(rej.code).toBe(3);
      expect(rej.stderr).toContain('audio_clipping');
    } finally {
      await old.close();
    }
  });

  it('shows a live table on a terminal', async () => {
    const { id } = await inReview(cli.server, { catalog_number: 'WATCH-TTY' });
    await cli.run(['sandbox', 'approve', id]);
    const r = await cli.run(['release', 'watch', id], { tty: true });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/ID\s+CATALOG NO\s+TITLE\s+STATE\s+SINCE/);
    expect(r.stderr).toMatch(new RegExp(`${id}\\s+WATCH-TTY\\s+Northern Sky\\s+approved`));
  });

  it('refuses bad durations with one line naming the flag', async () => {
    const fast = await cli.run(['release', 'watch', '1', '--interval', '500ms']);
    expect(fast.code).toBe(2);
    expect(fast.stderr).toMatch(/^error: --interval: must be at least 1s, got "500ms"\n/);
    const bad = await cli.run(['release', 'watch', '1', '--timeout', 'soon']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^error: --timeout: expected a duration like 500ms, 10s, 5m or 1h, got "soon"\n/);
  });
});

describe("release watch with the sandbox's auto-review", () => {
  it('submit, then watch until the sandbox approved it by itself', async () => {
    const auto = await startTestServer({ sandboxAutoReview: { outcome: 'approve', delayMs: 0 } });
    try {
      const r = await submittableRelease(auto, auto.tokens.label);
      const o = { url: auto.url, token: auto.tokens.label, configDir: cli.configDir };
      const sub = await runCli(['release', 'submit', String(r.id)], o);
      expect(sub.code, sub.stderr).toBe(0);
      const w = await runCli(['release', 'watch', String(r.id), '--json', '--interval', '1s', '--timeout', '5s'], o);
      expect(w.code, w.stderr).toBe(0);
      expect(lines(w).at(-1)).toMatchObject({ status: 'approved' });
    } finally {
      await auto.close();
    }
  });
});
