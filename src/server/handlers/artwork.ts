// The cover: an upload address for its image (the same signed, quota-counted PUT /uploads/{key}
// as a track's file, probed as an image there), and what a release's `artwork` field takes: an
// uploaded image by its key (the facts read from its bytes) or, from older clients, a declared URL.
import type { Artwork, ArtworkUploadRef, ArtworkUploadUrlData } from '../../contract/index.js';
import type { HandlerMap, ServerDeps } from '../handler.js';
import { assertAllowed } from '../rules/state-machine.js';
import type { FieldErrors } from '../rules/fields.js';
import { artworkOfUpload, declaredArtwork, type StoredArtwork } from '../store/artwork.js';
import { parseId } from '../store/ids.js';
import { getRelease } from '../store/releases.js';
import { findUpload } from '../store/uploads.js';
import { issueUploadAddress } from '../uploads/address.js';

/** The Content-Type the address is sent with: the declared one when it names an image the service reads, else bytes. */
const contentTypeFor = (declared: string | undefined) => {
  const type = (declared ?? '').split(';')[0]!.trim().toLowerCase();
  return type === 'image/jpeg' || type === 'image/png' ? type : 'application/octet-stream';
};

export const handlers: HandlerMap = {
  createArtworkUploadUrl({ user, params, body: b, baseUrl }, deps): ArtworkUploadUrlData {
    const r = getRelease(deps.db, user.id, parseId(params.releaseId, 'release'));
    assertAllowed(r.row.status, 'upload');
    const contentType = contentTypeFor(b.content_type);
    return issueUploadAddress(deps, baseUrl, {
      userId: user.id,
      releaseId: r.row.id,
      filename: b.filename,
      contentType: b.content_type ?? contentType,
      sendContentType: contentType,
      size: b.size,
      sha256: b.sha256,
      kind: 'image',
    });
  },
};

/**
 * What to store for a release's `artwork` as sent: an uploaded image of this release, ready (its
 * facts from its bytes), or a declared URL kept as declared. `releaseId` undefined: the release is
 * being created, so no upload can belong to it yet.
 */
export function artworkToStore(
  deps: Pick<ServerDeps, 'db'>,
  errors: FieldErrors,
  releaseId: number | undefined,
  input: ArtworkUploadRef | Artwork | null,
): StoredArtwork | null {
  if (input === null) return null;
  if (!('file_key' in input)) return declaredArtwork(input);
  const path = 'artwork.file_key';
  if (releaseId === undefined) {
    errors.add(path, 'a cover is uploaded to a release that exists: create the release, then ask for POST …/artwork/upload-url');
    return null;
  }
  const upload = findUpload(deps.db, input.file_key);
  if (!upload || upload.release_id !== releaseId || upload.kind !== 'image') {
    errors.add(path, 'unknown cover upload key for this release; ask for one with POST …/artwork/upload-url');
    return null;
  }
  if (upload.state !== 'ready') {
    errors.add(path, upload.reason ? `the upload was refused: ${upload.reason}` : 'the image has not been uploaded yet; PUT it to its upload_url first');
    return null;
  }
  return artworkOfUpload(upload);
}
