// The account's uploads that nothing names yet: complete ones (ready to attach) and uploads in
// parts still arriving. Listing them says what holds the account's quota and until when;
// discarding them frees it now (uploads/retention.ts would, after the expiry).
import { rmSync } from 'node:fs';
import type { DiscardUploadsResponse, UploadSummary } from '../../contract/index.js';
import type { HandlerMap, ServerDeps } from '../handler.js';
import { deleteUploadRows, ownUploadKeys, unattachedUploadsOf, uploadIsAttached, type UnattachedRow } from '../store/upload-parts.js';
import { uploadFilePath, uploadPartsPath } from '../store/uploads.js';
import { DEFAULT_UPLOAD_RETENTION } from '../uploads/retention.js';

function summaryOf(deps: Pick<ServerDeps, 'uploadExpiryMs'>, r: UnattachedRow): UploadSummary {
  const expiryMs = deps.uploadExpiryMs ?? DEFAULT_UPLOAD_RETENTION.unattachedExpiryMs;
  return {
    key: r.key,
    release_id: r.release_id,
    kind: r.kind,
    filename: r.filename,
    size: r.size,
    received_bytes: r.received_bytes,
    state: r.state === 'ready' ? 'complete' : 'receiving',
    part_size: r.part_size,
    created_at: r.created_at,
    updated_at: r.updated_at,
    expires_at: new Date(Date.parse(r.updated_at) + expiryMs).toISOString(),
  };
}

/** Removes a file that may not be there (an upload in parts before its first part; a row's file gone already). */
function removeQuietly(path: string): void {
  try {
    rmSync(path, { force: true });
  } catch {
    // The sweep's orphan pass removes what is left (uploads/retention.ts).
  }
}

export const handlers: HandlerMap = {
  listUploads({ user, query }, deps): UploadSummary[] {
    return unattachedUploadsOf(deps.db, user.id, query.state).map((r) => summaryOf(deps, r));
  },

  // Async, so that the files go after the transaction has committed (app.ts runs a synchronous handler inside one).
  async discardUploads({ user, body, commit }, deps) {
    // Rows first, in one transaction that asks again that nothing names them; the files after (a
    // file without a row is an orphan the sweep removes; a row without its file would be worse).
    const answer = commit((): DiscardUploadsResponse => {
      const keys = 'keys' in body ? [...new Set(body.keys)] : undefined;
      const rows = unattachedUploadsOf(deps.db, user.id, keys === undefined ? 'receiving' : undefined, keys);
      deleteUploadRows(
        deps.db,
        rows.map((r) => r.key),
      );
      const discarded = new Set(rows.map((r) => r.key));
      const left = (keys ?? []).filter((k) => !discarded.has(k));
      const own = ownUploadKeys(deps.db, user.id, left);
      // Still the account's after the delete: named by a track or a cover, or a single PUT never completed (which holds nothing: as good as gone).
      const attached = left.filter((k) => own.has(k) && uploadIsAttached(deps.db, k));
      return {
        discarded: rows.map((r) => summaryOf(deps, r)),
        attached,
        not_found: left.filter((k) => !attached.includes(k)),
      };
    });
    for (const r of answer.value.discarded) {
      removeQuietly(uploadFilePath(deps.dataDir, r.key));
      removeQuietly(uploadPartsPath(deps.dataDir, r.key));
    }
    return answer;
  },
};
