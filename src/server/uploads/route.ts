// PUT /uploads/{key}?expires=…&signature=…: the upload address handed out by
// POST /releases/{id}/tracks/upload-url. The signature is the credential (no bearer token, as
// with any pre-signed URL). Served on node:http directly, beside the Hono app, because an upload
// needs what a fetch-style handler cannot give: an answer before the body (Expect: 100-continue),
// the body read or discarded before a refusal, and the bytes passed once from the socket to the
// hash and the file. The bytes stream to a temporary file through a sha256 hash; only a file that
// matches the declared size (and the declared sha256, when one was declared) and passes the audio
// rules (or, for a cover's address, reads as a still image: src/artwork) is moved (renamed, so atomically) into place. A refused upload leaves no file behind.
import { renameSync } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ServiceError, type ServerDeps } from '../handler.js';
import { asServiceError, errorBody } from '../http/errors.js';
import { jsonAnswer } from '../http/answer.js';
import { bodyCutOf } from '../http/slow-bodies.js';
import { logRequest, newRequestId } from '../http/request-id.js';
import { isAllowed } from '../rules/state-machine.js';
import {
  findUpload,
  markUploadReady,
  markUploadRefused,
  unattachedBytesOf,
  uploadFilePath,
  uploadReleaseStatus,
  uploadsDir,
  uploadsTmpDir,
  type UploadRow,
} from '../store/uploads.js';
import { BytesInFlight, type UploadLimits } from './limits.js';
import { probeAudio } from './probe.js';
import { probeArtworkUpload } from './probe-artwork.js';
import { markArtworkUploadReady } from '../store/artwork.js';
import { receiveToFile } from './receive.js';
import { partFilePath } from './retention.js';
import { signatureMatches } from './sign.js';
import { recordUploadReady } from '../events/record.js';

/**
 * A refused upload sent without Expect: 100-continue is read and thrown away up to this size
 * before the answer, so that the client, still sending, reads the refusal instead of a broken
 * pipe. A larger body is answered at once and the connection closed.
 */
export const DISCARD_LIMIT = 16 * 1024 * 1024;

/** How long a refused client that asked for 100 Continue may take to start sending anyway (curl waits 1 s). */
const EXPECT_GRACE_MS = 200;

const UPLOAD_PATH = /^\/uploads\/([^/?]*)(?:\?|$)/;

const badSignature = () =>
  new ServiceError(403, 'upload_signature_invalid', 'the upload address is not valid (altered or unknown); ask for a new one with POST …/tracks/upload-url');

export interface UploadRoute {
  /** PUT /uploads/{key}: this route's; any other request is the app's. */
  matches(req: IncomingMessage): boolean;
  /** Answers the request; `expectsContinue`: the client waits for 100 Continue before sending the body. */
  handle(req: IncomingMessage, res: ServerResponse, expectsContinue: boolean): void;
}

export function uploadRoute(deps: ServerDeps, limits: UploadLimits): UploadRoute {
  const inFlight = new BytesInFlight(limits);
  // Upload keys whose bytes are arriving now, with how many connections send them: a PUT with
  // If-None-Match: * waits (409) instead of sending the same file a second time.
  const receiving = new Map<string, number>();

  const assertReleaseTakesUploads = (key: string): void => {
    const status = uploadReleaseStatus(deps.db, key);
    if (!status) throw new ServiceError(404, 'not_found', 'the release of this upload no longer exists');
    if (!isAllowed(status, 'upload')) throw new ServiceError(409, 'state_conflict', `the release is ${status}: no files can be uploaded to it`);
  };

  /** Everything that can be known before the body: throws the refusal. */
  const admit = (req: IncomingMessage): UploadRow => {
    const url = new URL(req.url ?? '/', 'http://upload.invalid');
    const key = UPLOAD_PATH.exec(url.pathname)?.[1] ?? '';
    const expires = Number(url.searchParams.get('expires'));
    const signature = url.searchParams.get('signature') ?? '';
    const upload = /^upl_[0-9a-f]{32}$/.test(key) ? findUpload(deps.db, key) : undefined;
    if (!upload || !Number.isSafeInteger(expires)) throw badSignature();
    if (!signatureMatches(deps.uploadSecret, { key, expires, size: upload.size, sha256: upload.sha256 }, signature)) throw badSignature();
    // If-None-Match: * (send the bytes only if the service has none for this address): a client
    // that may share the address with others (the same Idempotency-Key) learns before sending a
    // byte that the file is already there, or is arriving on another connection.
    if (req.headers['if-none-match']?.trim() === '*') {
      if (upload.state === 'ready') {
        throw new ServiceError(
          412,
          'precondition_failed',
          `upload ${key} is already complete (If-None-Match: *): its file is the one declared; attach its key`,
        );
      }
      if (receiving.has(key)) {
        throw new ServiceError(409, 'upload_in_progress', `upload ${key} is arriving on another connection; retry after Retry-After`, {
          headers: { 'retry-after': '1' },
        });
      }
    }
    if (expires * 1000 <= deps.now().getTime()) {
      throw new ServiceError(410, 'upload_expired', 'the upload address has expired; ask for a new one with POST …/tracks/upload-url');
    }
    assertReleaseTakesUploads(key);
    const length = req.headers['content-length'];
    if (length !== undefined && Number(length) !== upload.size) {
      throw new ServiceError(422, 'upload_mismatch', `the request is ${length} bytes (Content-Length) but ${upload.size} were declared`);
    }
    return upload;
  };

  const receive = async (req: IncomingMessage, upload: UploadRow, requestId: string) => {
    const { key } = upload;
    // Owner only, like the files in them (receive.ts writes them 0600).
    await mkdir(uploadsTmpDir(deps.dataDir), { recursive: true, mode: 0o700 });
    await mkdir(uploadsDir(deps.dataDir), { recursive: true, mode: 0o700 });
    const tmp = partFilePath(deps.dataDir, key);
    const got = await receiveToFile(req, tmp, upload.size, bodyCutOf(req));
    try {
      if (got.bytes !== upload.size) {
        throw new ServiceError(422, 'upload_mismatch', `received ${got.bytes} bytes but ${upload.size} were declared`);
      }
      // No declared digest: the service's own is the answer, for the client to compare with the one it computed while sending.
      if (upload.sha256 !== '' && got.sha256 !== upload.sha256) {
        throw new ServiceError(422, 'upload_mismatch', `the file's sha256 is ${got.sha256}, not the declared ${upload.sha256}`);
      }
      if (upload.kind === 'image') {
        const facts = await probeArtworkUpload(tmp);
        deps.db
          .transaction(() => {
            assertReleaseTakesUploads(key);
            renameSync(tmp, uploadFilePath(deps.dataDir, key));
            markArtworkUploadReady(deps.db, key, facts, got.sha256, deps.now().toISOString());
          })
          .immediate();
        return { key, state: 'ready' as const, size: got.bytes, sha256: got.sha256, ...facts };
      }
      const info = await probeAudio(tmp, got.bytes);
      // Asked again, and the file moved and recorded in the same step: while the bytes arrived the
      // release may have been deleted (its files already removed) or submitted.
      deps.db
        .transaction(() => {
          assertReleaseTakesUploads(key);
          renameSync(tmp, uploadFilePath(deps.dataDir, key));
          markUploadReady(deps.db, key, info, got.sha256, deps.now().toISOString());
          recordUploadReady(deps.db, upload, { ...info, size: got.bytes, sha256: got.sha256 }, requestId, deps.now().toISOString());
        })
        .immediate();
      return { key, state: 'ready' as const, size: got.bytes, sha256: got.sha256, ...info };
    } catch (e) {
      await rm(tmp, { force: true });
      throw e;
    }
  };

  return {
    matches: (req) => req.method === 'PUT' && UPLOAD_PATH.test(req.url ?? ''),

    handle(req, res, expectsContinue) {
      const requestId = newRequestId();
      const started = performance.now();
      const path = (req.url ?? '').split('?')[0] ?? '';
      const answer = (status: number, body: unknown, headers: Record<string, string> = {}, close = false) => {
        if (res.headersSent || res.destroyed) return;
        const text = JSON.stringify(body);
        const a = jsonAnswer(requestId, text, status, {
          'content-length': String(Buffer.byteLength(text)),
          ...headers,
          ...(close ? { connection: 'close' } : {}),
        });
        res.writeHead(a.status, a.headers);
        res.end(text);
        // The path only: the query carries the signature.
        logRequest(deps.log, requestId, 'PUT', path, status, started);
      };
      const fail = (err: unknown, close = false) => {
        const se = asServiceError(err);
        // 507 is a refusal like the others; only our own failures are logged as errors.
        if (se.code === 'internal') {
          const e = err instanceof Error ? err : new Error(String(err));
          deps.log.error('request failed', { request_id: requestId, method: 'PUT', path, error: e.stack ?? e.message });
        }
        answer(se.status, errorBody(se, requestId), se.headers, close);
      };
      // Refused with the body (or its rest) still to come. A client still sending would meet a
      // closed socket (a broken pipe instead of the answer), so up to DISCARD_LIMIT bytes are read
      // and dropped first; beyond that the answer goes at once and the connection closes. A client
      // waiting for 100 Continue is answered at once, unless its body comes anyway (a client that
      // did not wait, or a proxy that said 100 itself): then that body is dropped first too.
      const refuseUnread = (err: unknown) => {
        if (Number(req.headers['content-length'] ?? 0) > DISCARD_LIMIT) return fail(err, true);
        let sending = !expectsContinue;
        const timer = sending ? undefined : setTimeout(() => fail(err, true), EXPECT_GRACE_MS);
        void discard(req, DISCARD_LIMIT, bodyCutOf(req), () => {
          sending = true;
          clearTimeout(timer);
        }).then((complete) => {
          clearTimeout(timer);
          if (sending) fail(err, !complete || expectsContinue);
        });
      };

      let upload: UploadRow;
      let release: () => void;
      try {
        upload = admit(req);
        release = inFlight.reserve(upload.user_id, upload.size, unattachedBytesOf(deps.db, upload.user_id, upload.key));
      } catch (e) {
        refuseUnread(e);
        return;
      }
      receiving.set(upload.key, (receiving.get(upload.key) ?? 0) + 1);
      const received = () => {
        const n = (receiving.get(upload.key) ?? 1) - 1;
        if (n > 0) receiving.set(upload.key, n);
        else receiving.delete(upload.key);
      };
      if (expectsContinue) res.writeContinue();
      receive(req, upload, requestId)
        .finally(received)
        .then((result) => answer(200, result))
        .catch((e: unknown) => {
          try {
            if (e instanceof ServiceError) markUploadRefused(deps.db, upload.key, `${e.code}: ${e.message}`);
          } catch {
            // The database closed under us (the service stopping): the answer matters more than the note.
          }
          // Cut for its slowness (http/slow-bodies.ts): answered at once, and the connection closes.
          if (e instanceof ServiceError && e.code === 'request_timeout') fail(e, true);
          else if (req.complete) fail(e);
          else {
            expectsContinue = false;
            refuseUnread(e);
          }
        })
        .finally(release);
    },
  };
}

/** Reads and drops the rest of a body, up to `limit` bytes (or until it is cut for its slowness); true when it ended within it. */
function discard(req: IncomingMessage, limit: number, cut: Promise<never> | undefined, onFirstByte: () => void): Promise<boolean> {
  return new Promise((resolve) => {
    let seen = 0;
    const onData = (chunk: Buffer) => {
      if (seen === 0) onFirstByte();
      seen += chunk.length;
      if (seen > limit) done(false);
    };
    const done = (complete: boolean) => {
      req.off('data', onData);
      if (!complete) req.pause();
      resolve(complete);
    };
    if (req.complete) return resolve(true);
    if (req.destroyed) return resolve(false);
    req.on('data', onData);
    req.once('end', () => done(true));
    req.once('close', () => done(req.complete));
    cut?.catch(() => done(false));
    req.resume();
  });
}

export type { UploadLimits };
