// The audio a release file names by address (`file: https://…`), downloaded before anything is
// checked or sent, to a file of this user's only (a 0700 folder, 0600 files), named by a hash of
// the address: a second run of the same files (a plan then an apply, or an apply resumed after
// a kill) finds it there and downloads nothing; a download is written beside its place and
// renamed into it when whole, so a killed one is never taken for the file. Bounded in size (the
// service's upload bound) and in redirects, each hop held to the same rule (https, or http to
// this machine). Messages show an address without its query, which may hold a signature.
import { createHash, randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { lstat, mkdir, rename, rm, stat } from 'node:fs/promises';
import { tmpdir, userInfo } from 'node:os';
import { extname, join } from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { uploadMaxBytes } from '../../contract/routes.js';
import { audioUrlProblem, shownUrl } from '../release-file/load.js';

const MAX_REDIRECTS = 5;

export class DownloadFailed extends Error {
  constructor(
    readonly shown: string,
    reason: string,
  ) {
    super(`${shown}: ${reason}`);
    this.name = 'DownloadFailed';
  }
}

/** Where downloads are kept: RELDIST_DOWNLOAD_DIR, else a folder of this user's under the system's temporary folder. */
export function downloadDir(env: NodeJS.ProcessEnv = process.env): string {
  return env.RELDIST_DOWNLOAD_DIR ?? join(tmpdir(), `reldist-audio-${userInfo().uid}`);
}

/** The local file of an address's audio: found from an earlier run, else downloaded now. */
export async function downloadAudio(
  url: string,
  o: { dir: string; signal?: AbortSignal | undefined; maxBytes?: number; fetchImpl?: typeof fetch },
): Promise<string> {
  const shown = shownUrl(url);
  const problem = audioUrlProblem(url);
  if (problem) throw new DownloadFailed(shown, problem);
  await mkdir(o.dir, { recursive: true, mode: 0o700 });
  await refuseSharedFolder(o.dir, shown);
  const ext = (extname(new URL(url).pathname)
    .toLowerCase()
    .match(/^\.[a-z0-9]{1,5}$/) ?? [''])[0];
  const path = join(o.dir, `${createHash('sha256').update(url).digest('hex').slice(0, 40)}${ext}`);
  try {
    if ((await stat(path)).isFile()) return path;
  } catch {
    // not downloaded yet
  }
  const max = o.maxBytes ?? uploadMaxBytes;
  const doFetch = o.fetchImpl ?? fetch;
  let current = url;
  let res: Response | undefined;
  for (let hop = 0; ; hop++) {
    try {
      res = await doFetch(current, { redirect: 'manual', ...(o.signal ? { signal: o.signal } : {}) });
    } catch (err) {
      if (o.signal?.aborted) throw err;
      throw new DownloadFailed(
        shown,
        `could not be downloaded (${(err as Error).cause instanceof Error ? ((err as Error).cause as Error).message : (err as Error).message})`,
      );
    }
    if (res.status < 300 || res.status >= 400) break;
    const next = res.headers.get('location');
    await res.body?.cancel();
    if (next === null || hop >= MAX_REDIRECTS) throw new DownloadFailed(shown, `too many redirects (at most ${MAX_REDIRECTS})`);
    current = new URL(next, current).toString();
    const hopProblem = audioUrlProblem(current);
    if (hopProblem) throw new DownloadFailed(shown, `redirected elsewhere: ${hopProblem}`);
  }
  if (!res.ok || res.body === null) {
    await res.body?.cancel();
    throw new DownloadFailed(shown, `the server answered ${res.status}${res.statusText ? ` ${res.statusText}` : ''}`);
  }
  const declared = Number(res.headers.get('content-length') ?? Number.NaN);
  if (declared > max) {
    await res.body.cancel();
    throw new DownloadFailed(shown, `${declared} bytes: more than the ${max} an upload may have`);
  }
  const temp = `${path}.${process.pid}-${randomBytes(4).toString('hex')}.part`;
  let received = 0;
  const bound = new Transform({
    transform(chunk: Buffer, _enc, done) {
      received += chunk.length;
      if (received > max) done(new DownloadFailed(shown, `more than the ${max} bytes an upload may have`));
      else done(null, chunk);
    },
  });
  try {
    await pipeline(Readable.fromWeb(res.body as WebReadableStream), bound, createWriteStream(temp, { mode: 0o600, flags: 'wx' }), {
      ...(o.signal ? { signal: o.signal } : {}),
    });
    if (received === 0) throw new DownloadFailed(shown, 'the server sent no bytes');
    await rename(temp, path);
  } catch (err) {
    await rm(temp, { force: true });
    if (err instanceof DownloadFailed || o.signal?.aborted) throw err;
    throw new DownloadFailed(shown, `the download broke off (${(err as Error).message})`);
  }
  return path;
}

/**
 * The folder's name is one anyone can predict (under the shared temporary folder): one made by
 * another user, or one others may write in, could hold a planted file that apply would upload as a
 * track's audio. Only a folder of this user's that nobody else may write in is used.
 */
async function refuseSharedFolder(dir: string, shown: string): Promise<void> {
  const st = await lstat(dir);
  const mine = typeof process.getuid !== 'function' || st.uid === process.getuid();
  if (!st.isDirectory() || !mine || (st.mode & 0o022) !== 0) {
    throw new DownloadFailed(
      shown,
      `not downloaded: ${dir} is not a folder of this user's that only this user may write in (remove it, or set RELDIST_DOWNLOAD_DIR)`,
    );
  }
}
