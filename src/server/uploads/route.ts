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
  uploadPartsPath,
  signedSha256Of,
  type UploadRow,
} from '../store/uploads.js';
import { BytesInFlight, type UploadLimits } from './limits.js';
import { probeAudio } from './probe.js';
import { probeArtworkUpload } from './probe-artwork.js';
import { markArtworkUploadReady } from '../store/artwork.js';
import { receiveAt, receiveToFile } from './receive.js';
import { completedAnswer, completeParts, inParts, partsFile, partSpan, statusOf } from './parts.js';
import { parseUploadChecksum, type UploadChecksumAlgorithm } from '../../contract/wire-values.js';
import { dropParts, partOf, recordPart } from '../store/upload-parts.js';
import { RunningDigests } from './running-digest.js';
import { uploadKeyPattern } from '../../contract/routes.js';
import { DEFAULT_UPLOAD_RETENTION, partFilePath } from './retention.js';
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
/** An upload in parts: a part's address, and its completion's. */
const PART_PATH = /^\/uploads\/(upl_[0-9a-f]{32})\/parts\/([0-9]{1,6})(?:\?|$)/;
const COMPLETE_PATH = /^\/uploads\/(upl_[0-9a-f]{32})\/complete(?:\?|$)/;
/** A completion's JSON body: {"sha256": "…"} is a few dozen bytes. */
const COMPLETE_BODY_LIMIT = 4096;

/** One exchange's answering helpers (made in `handle`), for the handlers of parts and completions. */
interface Exchange {
  answer(status: number, body: unknown, headers?: Record<string, string>, close?: boolean): void;
  fail(err: unknown, close?: boolean): void;
  /** Refused with the body still to come (see `handle`); `sending`: the client was told to send. */
  refuseUnread(err: unknown, sending?: boolean): void;
  answerUnread(send: (close: boolean) => void, sending?: boolean): void;
  requestId: string;
  /** 100 Continue, to a client that waits for it. */
  sayContinue(): void;
}

type Target = { kind: 'whole' | 'status' | 'complete'; key: string } | { kind: 'part'; key: string; part: number };

function targetOf(req: IncomingMessage): Target | undefined {
  const url = req.url ?? '';
  if (req.method === 'PUT') {
    const part = PART_PATH.exec(url);
    if (part) return { kind: 'part', key: part[1]!, part: Number(part[2]) };
    const whole = UPLOAD_PATH.exec(url);
    return whole ? { kind: 'whole', key: whole[1] ?? '' } : undefined;
  }
  if (req.method === 'GET' || req.method === 'HEAD') {
    const whole = UPLOAD_PATH.exec(url);
    return whole && /^upl_/.test(whole[1] ?? '') ? { kind: 'status', key: whole[1]! } : undefined;
  }
  if (req.method === 'POST') {
    const complete = COMPLETE_PATH.exec(url);
    return complete ? { kind: 'complete', key: complete[1]! } : undefined;
  }
  return undefined;
}

const badSignature = () =>
  new ServiceError(403, 'upload_signature_invalid', 'the upload address is not valid (altered or unknown); ask for a new one with POST …/tracks/upload-url');

export interface UploadRoute {
  /** PUT /uploads/{key}: this route's; any other request is the app's. */
  matches(req: IncomingMessage): boolean;
  /** A file's bytes (a whole PUT or a part): bounded by the minimum rate, not by the whole-body time limit of small bodies. */
  carriesFile(req: IncomingMessage): boolean;
  /** Answers the request; `expectsContinue`: the client waits for 100 Continue before sending the body. */
  handle(req: IncomingMessage, res: ServerResponse, expectsContinue: boolean): void;
  /** Forgets the running digests of uploads in parts. */
  close(): Promise<void>;
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

  /** The upload a signed address names, its signature checked; `expires` in Unix seconds. */
  const signed = (req: IncomingMessage, key: string): { upload: UploadRow; expires: number } => {
    const url = new URL(req.url ?? '/', 'http://upload.invalid');
    const expires = Number(url.searchParams.get('expires'));
    const signature = url.searchParams.get('signature') ?? '';
    const upload = uploadKeyPattern.test(key) ? findUpload(deps.db, key) : undefined;
    if (!upload || !Number.isSafeInteger(expires)) throw badSignature();
    // Checked against the digest the address was signed with, not the computed one a complete
    // upload holds. A row made ready before signed_sha256 was kept may have been signed with none.
    const signedWith = [signedSha256Of(upload)];
    if (upload.signed_sha256 === null && upload.state === 'ready') signedWith.push('');
    if (!signedWith.some((sha256) => signatureMatches(deps.uploadSecret, { key, expires, size: upload.size, sha256 }, signature))) throw badSignature();
    return { upload, expires };
  };
  const assertNotExpired = (expires: number): void => {
    if (expires * 1000 <= deps.now().getTime()) {
      throw new ServiceError(410, 'upload_expired', 'the upload address has expired; ask for a new one with POST …/tracks/upload-url');
    }
  };

  /** A part's or a completion's address: signed, not expired, an upload in parts, its release taking uploads. */
  const admitInParts = (req: IncomingMessage, key: string): UploadRow & { part_size: number } => {
    const { upload, expires } = signed(req, key);
    assertNotExpired(expires);
    if (!inParts(upload)) {
      throw new ServiceError(409, 'state_conflict', `upload ${key} was not asked for in parts: PUT the whole file to its upload_url`);
    }
    if (upload.state !== 'ready') assertReleaseTakesUploads(key);
    return upload;
  };

  /** Everything that can be known before the body: throws the refusal. */
  const admit = (req: IncomingMessage, key: string): UploadRow => {
    const { upload, expires } = signed(req, key);
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
    assertNotExpired(expires);
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
      const declared = signedSha256Of(upload);
      if (declared !== '' && got.sha256 !== declared) {
        throw new ServiceError(422, 'upload_mismatch', `the file's sha256 is ${got.sha256}, not the declared ${declared}`);
      }
      if (upload.state === 'ready') {
        // Other bytes never replace a complete upload's file (a track may play it already).
        if (got.sha256 !== upload.sha256) {
          throw new ServiceError(409, 'state_conflict', `upload ${key} is complete with other bytes (sha256 ${upload.sha256}); ask for a new address`);
        }
        // The same bytes again (a retry whose first answer was lost): the first answer, recorded once.
        if (upload.kind !== 'image') {
          await rm(tmp, { force: true });
          return completedAnswer(deps, upload);
        }
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
          // Asked for in parts and sent whole after all: what parts it held are of no use now.
          if (inParts(upload)) dropParts(deps.db, key);
          recordUploadReady(deps.db, upload, { ...info, size: got.bytes, sha256: got.sha256 }, requestId, deps.now().toISOString());
        })
        .immediate();
      if (inParts(upload)) {
        digests.drop(key);
        await rm(uploadPartsPath(deps.dataDir, key), { force: true });
      }
      return { key, state: 'ready' as const, size: got.bytes, sha256: got.sha256, ...info };
    } catch (e) {
      await rm(tmp, { force: true });
      throw e;
    }
  };

  // Parts arriving now, by upload key: a second request for a part on its way waits (409) instead of writing the same bytes.
  const partsArriving = new Map<string, Set<number>>();
  // Completions running now: a second one waits (409) and then gets the first one's answer.
  const completing = new Set<string>();
  const digests = new RunningDigests(deps.uploadExpiryMs ?? DEFAULT_UPLOAD_RETENTION.unattachedExpiryMs, () => deps.now().getTime());

  const handlePart = (req: IncomingMessage, key: string, part: number, x: Exchange): void => {
    let upload: UploadRow & { part_size: number };
    let span: { offset: number; size: number };
    let checksum: { algorithm: UploadChecksumAlgorithm; text: string };
    let replacing = false;
    let release: () => void;
    try {
      upload = admitInParts(req, key);
      if (upload.state === 'ready') {
        throw new ServiceError(409, 'state_conflict', `upload ${key} is complete already: POST its complete_url for its answer`);
      }
      span = partSpan(upload, part);
      const length = req.headers['content-length'];
      if (length === undefined || Number(length) !== span.size) {
        throw new ServiceError(
          422,
          'upload_mismatch',
          `part ${part} of upload ${key} is ${span.size} bytes; the request is ${length ?? 'of no'} Content-Length`,
        );
      }
      const header = req.headers['upload-checksum'];
      const declared = parseUploadChecksum(typeof header === 'string' ? header : undefined);
      if (declared === undefined) {
        throw new ServiceError(
          400,
          'bad_request',
          "a part is sent with its checksum: Upload-Checksum: crc32 <base64 of the part's CRC-32> (or sha256 <base64>)",
        );
      }
      checksum = declared;
      // Held already with these bytes (a retry whose answer was lost): answered before the body, which need not come.
      const held = partOf(deps.db, key, part);
      replacing = held !== undefined;
      if (held?.checksum === checksum.text) {
        const answer = { part, size: held.size, checksum: held.checksum };
        x.answerUnread((close) => x.answer(200, answer, {}, close));
        return;
      }
      if (partsArriving.get(key)?.has(part)) {
        throw new ServiceError(409, 'upload_in_progress', `part ${part} of upload ${key} is arriving on another connection; retry after Retry-After`, {
          headers: { 'retry-after': '1' },
        });
      }
      // Not while it is being completed: the parts' file becomes the upload's file then, and a part written into it after
      // its digest was taken would change a complete upload's bytes.
      if (completing.has(key)) {
        throw new ServiceError(409, 'upload_in_progress', `upload ${key} is being completed; retry after Retry-After`, { headers: { 'retry-after': '1' } });
      }
      release = inFlight.reserve(upload.user_id, span.size, unattachedBytesOf(deps.db, upload.user_id, key));
    } catch (e) {
      x.refuseUnread(e);
      return;
    }
    const arriving = partsArriving.get(key) ?? new Set<number>();
    arriving.add(part);
    partsArriving.set(key, arriving);
    const done = () => {
      arriving.delete(part);
      if (arriving.size === 0 && partsArriving.get(key) === arriving) partsArriving.delete(key);
    };
    x.sayContinue();
    void receivePart(req, upload, part, span, checksum, replacing)
      .finally(done)
      .then((result) => x.answer(200, result))
      .catch((e: unknown) => {
        if (e instanceof ServiceError && e.code === 'request_timeout') x.fail(e, true);
        else if (req.complete) x.fail(e);
        else x.refuseUnread(e, true);
      })
      .finally(release);
  };

  const receivePart = async (
    req: IncomingMessage,
    upload: UploadRow & { part_size: number },
    part: number,
    span: { offset: number; size: number },
    declared: { algorithm: UploadChecksumAlgorithm; text: string },
    replacing: boolean,
  ) => {
    const path = await partsFile(deps.dataDir, upload.key);
    const got = await receiveAt(req, path, span.offset, span.size, declared.algorithm, bodyCutOf(req));
    if (got.bytes !== span.size) {
      throw new ServiceError(422, 'upload_mismatch', `received ${got.bytes} bytes of part ${part}, which is ${span.size}`);
    }
    if (got.checksum !== declared.text) {
      throw new ServiceError(
        422,
        'upload_part_mismatch',
        `part ${part}'s checksum is ${got.checksum}, not the ${declared.text} its Upload-Checksum declared; nothing of it was kept: send it again`,
      );
    }
    deps.db
      .transaction(() => {
        const now = findUpload(deps.db, upload.key);
        if (!now) throw new ServiceError(404, 'not_found', `upload ${upload.key} was discarded while part ${part} arrived`);
        if (now.state === 'ready') throw new ServiceError(409, 'state_conflict', `upload ${upload.key} was completed while part ${part} arrived`);
        assertReleaseTakesUploads(upload.key);
        recordPart(deps.db, upload.key, { part, size: span.size, checksum: got.checksum }, deps.now().toISOString());
      })
      .immediate();
    digests.held(upload.key, path, upload, part, got.checksum, replacing);
    return { part, size: span.size, checksum: got.checksum };
  };

  const handleComplete = (req: IncomingMessage, key: string, x: Exchange): void => {
    let upload: UploadRow & { part_size: number };
    try {
      upload = admitInParts(req, key);
      if (Number(req.headers['content-length'] ?? 0) > COMPLETE_BODY_LIMIT) {
        throw new ServiceError(413, 'payload_too_large', `a completion's body is {"sha256": "…"}, at most ${COMPLETE_BODY_LIMIT} bytes`);
      }
      if (completing.has(key)) {
        throw new ServiceError(409, 'upload_in_progress', `upload ${key} is being completed by another request; retry after Retry-After`, {
          headers: { 'retry-after': '1' },
        });
      }
      // Nor while a part is still arriving (sent again by another client sharing the upload): its bytes would land in the file
      // being completed.
      if (partsArriving.get(key)?.size) {
        throw new ServiceError(409, 'upload_in_progress', `a part of upload ${key} is still arriving; retry after Retry-After`, {
          headers: { 'retry-after': '1' },
        });
      }
    } catch (e) {
      x.refuseUnread(e);
      return;
    }
    completing.add(key);
    x.sayContinue();
    void readSmallBody(req, COMPLETE_BODY_LIMIT, bodyCutOf(req))
      .then(async (text) => {
        const declared = await declaredSha256(text);
        const signedWith = signedSha256Of(upload);
        if (declared !== undefined && signedWith !== '' && declared !== signedWith) {
          throw new ServiceError(422, 'upload_mismatch', `the sha256 ${declared} is not the ${signedWith} declared when the upload was asked for`);
        }
        const expected = declared ?? (signedWith === '' ? undefined : signedWith);
        if (expected === undefined) throw new ServiceError(400, 'bad_request', 'declare the whole file\'s sha256: {"sha256": "<64 hex digits>"}');
        const current = findUpload(deps.db, key) ?? upload;
        if (current.state === 'ready') {
          if (current.sha256 !== expected)
            throw new ServiceError(422, 'upload_mismatch', `upload ${key} is complete with the sha256 ${current.sha256}, not ${expected}`);
          return completedAnswer(deps, current);
        }
        return completeParts(deps, upload, expected, x.requestId, assertReleaseTakesUploads, digests);
      })
      .finally(() => completing.delete(key))
      .then((result) => x.answer(200, result))
      .catch((e: unknown) => x.fail(e, e instanceof ServiceError && e.code === 'request_timeout'));
  };

  return {
    close: () => digests.close(),
    matches: (req) => targetOf(req) !== undefined,
    carriesFile: (req) => {
      const kind = targetOf(req)?.kind;
      return kind === 'whole' || kind === 'part';
    },

    handle(req, res, expectsContinue) {
      const requestId = newRequestId();
      const started = performance.now();
      const path = (req.url ?? '').split('?')[0] ?? '';
      const method = req.method ?? 'PUT';
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
        logRequest(deps.log, requestId, method, path, status, started);
      };
      const fail = (err: unknown, close = false) => {
        const se = asServiceError(err);
        // 507 is a refusal like the others; only our own failures are logged as errors.
        if (se.code === 'internal') {
          const e = err instanceof Error ? err : new Error(String(err));
          deps.log.error('request failed', { request_id: requestId, method, path, error: e.stack ?? e.message });
        }
        answer(se.status, errorBody(se, requestId), se.headers, close);
      };
      // Answered with the body (or its rest) still to come: a refusal, or a part held already. A
      // client still sending would meet a closed socket (a broken pipe instead of the answer), so
      // up to DISCARD_LIMIT bytes are read and dropped first; beyond that the answer goes at once
      // and the connection closes. A client waiting for 100 Continue is answered at once, unless
      // its body comes anyway (a client that did not wait, or a proxy that said 100 itself): then
      // that body is dropped first too. `sending`: the client was told to send (or never asked).
      const answerUnread = (send: (close: boolean) => void, sending = !expectsContinue) => {
        if (Number(req.headers['content-length'] ?? 0) > DISCARD_LIMIT) return send(true);
        const asked = !sending;
        const timer = sending ? undefined : setTimeout(() => send(true), EXPECT_GRACE_MS);
        void discard(req, DISCARD_LIMIT, bodyCutOf(req), () => {
          sending = true;
          clearTimeout(timer);
        }).then((complete) => {
          clearTimeout(timer);
          if (sending) send(!complete || asked);
        });
      };
      const refuseUnread = (err: unknown, sending?: boolean) => answerUnread((close) => fail(err, close), sending);
      const x: Exchange = {
        answer,
        fail,
        refuseUnread,
        answerUnread,
        requestId,
        sayContinue: () => {
          if (expectsContinue) res.writeContinue();
        },
      };

      const target = targetOf(req);
      if (!target) return refuseUnread(new ServiceError(404, 'not_found', 'no such upload address'));
      if (target.kind === 'status') {
        try {
          const { upload } = signed(req, target.key);
          answer(200, statusOf(deps, upload));
        } catch (e) {
          refuseUnread(e);
        }
        return;
      }
      if (target.kind === 'part') return handlePart(req, target.key, target.part, x);
      if (target.kind === 'complete') return handleComplete(req, target.key, x);

      let upload: UploadRow;
      let release: () => void;
      try {
        upload = admit(req, target.key);
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
          else refuseUnread(e, true);
        })
        .finally(release);
    },
  };
}

/** A small body (a completion's JSON) as text; more than `limit` bytes is refused. */
function readSmallBody(req: IncomingMessage, limit: number, cut: Promise<never> | undefined): Promise<string> {
  return new Promise((resolve, reject) => {
    // A body too slow is cut as every other body is (408), not left to fail as a broken connection.
    cut?.catch(reject);
    const chunks: Buffer[] = [];
    let seen = 0;
    req.on('data', (chunk: Buffer) => {
      seen += chunk.length;
      if (seen > limit) {
        req.pause();
        return reject(new ServiceError(413, 'payload_too_large', `a completion's body is {"sha256": "…"}, at most ${limit} bytes`));
      }
      chunks.push(chunk);
    });
    req.once('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.once('error', reject);
  });
}

/** The sha256 a completion's body declares: {"sha256": "<64 hex>"}, or nothing ({} or no body). */
async function declaredSha256(text: string): Promise<string | undefined> {
  if (text.trim() === '') return undefined;
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new ServiceError(400, 'invalid_json', 'the body is not JSON; send {"sha256": "<64 hex digits>"}');
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new ServiceError(400, 'bad_request', 'send {"sha256": "<64 hex digits>"}');
  // The contract's schema, as every other body: what openapi.json says is refused (an unknown field too) is refused here.
  // Loaded here, not with the route: the service's start-up and its fast reads load no schema.
  const [{ parseBody }, { CompleteUploadRequest }] = await Promise.all([import('../http/validate.js'), import('../../contract/requests.js')]);
  return parseBody(CompleteUploadRequest, body).sha256;
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
