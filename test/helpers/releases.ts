// Builders for the server's integration tests: a complete release, an uploaded WAV.
import { api, type TestServer } from './server.js';
import { makeWav, sha256 } from './audio.js';

export const validRelease = {
  type: 'single',
  title: 'Northern Sky',
  artists: [{ name: 'Nina Vale', role: 'primary' }],
  label: 'Northern Lights Records',
  genre: 'Pop',
  language: 'en',
  p_line: { year: 2026, owner: 'Northern Lights Records' },
  c_line: { year: 2026, owner: 'Northern Lights Records' },
  explicit: 'not_explicit',
} as const;

/** An ISO date `days` from today (UTC). */
export function daysFromNow(days: number): string {
  return new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
}

export async function createRelease(s: { url: string }, token: string, overrides: Record<string, unknown> = {}): Promise<any> {
  const res = await api(s, token, 'POST', '/releases', { ...validRelease, ...overrides });
  if (res.status !== 201) throw new Error(`create release: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

/** Asks for an upload address and PUTs the bytes; returns the key and the PUT's answer. */
export async function upload(
  s: { url: string },
  token: string,
  releaseId: number,
  bytes: Buffer,
  declared: { size?: number; sha256?: string; filename?: string; content_type?: string } = {},
): Promise<{ key: string; put: { status: number; body: any }; uploadUrl: string }> {
  const u = await api(s, token, 'POST', `/releases/${releaseId}/tracks/upload-url`, {
    filename: declared.filename ?? 'track.wav',
    content_type: declared.content_type ?? 'audio/wav',
    size: declared.size ?? bytes.length,
    sha256: declared.sha256 ?? sha256(bytes),
  });
  if (u.status !== 201) throw new Error(`upload-url: ${u.status} ${JSON.stringify(u.body)}`);
  const res = await fetch(u.body.upload_url, { method: 'PUT', headers: { 'content-type': 'audio/wav' }, body: bytes });
  const text = await res.text();
  return { key: u.body.key, put: { status: res.status, body: text ? JSON.parse(text) : undefined }, uploadUrl: u.body.upload_url };
}

let wav30: Buffer | undefined;
/** A valid 30 s, 16-bit, 44.1 kHz stereo WAV (built once per test file). */
export function validWav(): Buffer {
  wav30 ??= makeWav({ seconds: 30 });
  return wav30;
}

/** A release that passes every blocking check: metadata, delivery date, one track with audio. */
export async function submittableRelease(s: TestServer, token: string, overrides: Record<string, unknown> = {}): Promise<any> {
  const rel = await createRelease(s, token, overrides);
  const d = await api(s, token, 'PATCH', `/releases/${rel.id}/delivery`, { release_date: daysFromNow(30) });
  if (d.status !== 200) throw new Error(`delivery: ${d.status} ${JSON.stringify(d.body)}`);
  const up = await upload(s, token, rel.id, validWav());
  if (up.put.status !== 200) throw new Error(`upload: ${up.put.status} ${JSON.stringify(up.put.body)}`);
  const t = await api(s, token, 'PUT', `/releases/${rel.id}/tracks`, {
    tracks: [
      {
        file_key: up.key,
        title: 'Northern Sky',
        contributors: [
          { name: 'Nina Vale', role: 'composer' },
          { name: 'Nina Vale', role: 'lyricist' },
        ],
        audio_language: 'en',
      },
    ],
  });
  if (t.status !== 200) throw new Error(`tracks: ${t.status} ${JSON.stringify(t.body)}`);
  return t.body;
}
