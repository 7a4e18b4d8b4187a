// `upload list` and `upload discard` against the real service: uploads no track names (an upload
// in parts left arriving by a killed run, a complete one never attached), listed with what they
// hold and when they expire; discarded by key or all those arriving; idempotent; attached ones kept.
import { crc32 } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { makeWav } from '../helpers/audio.js';
import { createRelease } from '../helpers/releases.js';
import { api } from '../helpers/server.js';
import { useCli } from './cli-harness.js';

const cli = useCli();
const MiB = 1024 * 1024;
const wav = makeWav({ seconds: 30 });

/** An upload in parts with its first part sent, as a killed run leaves it. */
async function leftArriving(releaseId: number, filename: string): Promise<string> {
  const s = cli.server;
  const a = (
    await api(s, s.tokens.label, 'POST', `/releases/${releaseId}/tracks/upload-url`, { filename, content_type: 'audio/wav', size: wav.length, part_size: MiB })
  ).body;
  const part = wav.subarray(0, MiB);
  const b = Buffer.alloc(4);
  b.writeUInt32BE(crc32(part) >>> 0);
  const put = await fetch(a.parts.part_url.replace('{part}', '1'), {
    method: 'PUT',
    headers: { 'upload-checksum': `crc32 ${b.toString('base64')}` },
    body: part,
  });
  expect(put.status).toBe(200);
  return a.key;
}

describe('upload list and discard', () => {
  it('lists nothing at first, then what a killed run left; discards it by key, and says so again without failing', async () => {
    const empty = await cli.run(['upload', 'list'], { tty: true });
    expect(empty.code).toBe(0);
    expect(empty.stderr).toContain('no uploads waiting to be attached');
    const releaseId = (await createRelease(cli.server, cli.server.tokens.label)).id;
    const key = await leftArriving(releaseId, 'killed.wav');
    const listed = await cli.json<any[]>(['upload', 'list', '--incomplete']);
    expect(listed).toEqual([
      expect.objectContaining({
        key,
        release_id: releaseId,
        filename: 'killed.wav',
        state: 'receiving',
        received_bytes: MiB,
        size: wav.length,
        part_size: MiB,
      }),
    ]);
    const piped = await cli.run(['upload', 'list']);
    expect(piped.stdout.trim().split('\t').slice(0, 5)).toEqual([
      key,
      String(releaseId),
      'killed.wav',
      'receiving',
      `1.0 MiB of ${(wav.length / MiB).toFixed(1)} MiB`,
    ]);

    // Not on a terminal: --yes is needed, and nothing is discarded without it.
    const asked = await cli.run(['upload', 'discard', key]);
    expect(asked.code).toBe(2);
    expect(asked.stderr).toContain('nothing was discarded: confirmation needed');
    expect(await cli.json<any[]>(['upload', 'list', '--incomplete'])).toHaveLength(1);

    const gone = await cli.run(['upload', 'discard', key, '--yes'], { tty: true });
    expect(gone.code, gone.stderr).toBe(0);
    expect(gone.stderr).toContain('Discarded 1 upload (1.0 MiB freed)');
    const again = await cli.run(['upload', 'discard', key, '--yes'], { tty: true });
    expect(again.code).toBe(0);
    expect(again.stderr).toContain(`${key}: no such upload (discarded or expired already)`);
    expect(await cli.json<any[]>(['upload', 'list'])).toEqual([]);
  });

  it('--all-incomplete discards every upload in parts arriving, and only those; an attached key is kept (exit 9)', async () => {
    const releaseId = (await createRelease(cli.server, cli.server.tokens.label)).id;
    const keys = [await leftArriving(releaseId, 'a.wav'), await leftArriving(releaseId, 'b.wav')];
    const s = cli.server;
    // A complete one, never attached: not "incomplete".
    const whole = (
      await api(s, s.tokens.label, 'POST', `/releases/${releaseId}/tracks/upload-url`, { filename: 'whole.wav', content_type: 'audio/wav', size: wav.length })
    ).body;
    expect((await fetch(whole.upload_url, { method: 'PUT', body: wav })).status).toBe(200);

    const r = await cli.json<any>(['upload', 'discard', '--all-incomplete', '--yes']);
    expect(r.discarded.map((u: any) => u.key).sort()).toEqual([...keys].sort());
    expect((await cli.json<any[]>(['upload', 'list'])).map((u) => u.key)).toEqual([whole.key]);
    const nothing = await cli.run(['upload', 'discard', '--all-incomplete', '--yes'], { tty: true });
    expect(nothing.code).toBe(0);
    expect(nothing.stderr).toContain('nothing to discard');

    const attach = await api(s, s.tokens.label, 'PUT', `/releases/${releaseId}/tracks`, [
      { file_key: whole.key, title: 'W', contributors: [{ name: 'N', role: 'composer' }] },
    ]);
    expect(attach.status).toBe(200);
    const kept = await cli.run(['upload', 'discard', whole.key, '--yes']);
    expect(kept.code).toBe(9);
    expect(kept.stderr).toContain(`${whole.key}: not discarded: a track or a release's cover names it`);
  });

  it('refuses what is not an upload key, and keys with --all-incomplete', async () => {
    const r = await cli.run(['upload', 'discard', 'upl_nope', '--yes']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('upl_nope: not an upload key');
    const both = await cli.run(['upload', 'discard', 'upl_0c4e2a9b7d1f3e5a6b8c9d0e1f2a3b4c', '--all-incomplete', '--yes']);
    expect(both.code).toBe(2);
  });
});
