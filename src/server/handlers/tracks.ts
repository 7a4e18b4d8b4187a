// Track endpoints: list, read, ask for an upload address, replace the list, replace one file.
import type { ReleaseResource, TrackResource, TrackUploadUrlData } from '../../contract/index.js';
import { tracksOf, uploadContentTypeFor } from '../../contract/wire-values.js';
import { checkIsrc } from '../../codes/index.js';
import { notFound, ServiceError, type HandlerMap } from '../handler.js';
import { etagOfBody, requireIfMatch } from '../http/etag.js';
import { assertAllowed } from '../rules/state-machine.js';
import { parseId } from '../store/ids.js';
import { blankToNull, getRelease } from '../store/releases.js';
import { findTrackResource, listTrackResources, replaceTracks, setTrackFile, type TrackData, type TrackWrite } from '../store/tracks.js';
import { findUpload, type UploadRow } from '../store/uploads.js';
import { issueUploadAddress, partCount } from '../uploads/address.js';
import { uploadPartBounds } from '../../contract/routes.js';
import { editReleaseTracks } from './releases.js';
import { userActor } from '../store/events.js';
import { FieldErrors, checkArtistIds, checkLanguage } from '../rules/fields.js';

/** Declared types that are refused before a byte is sent; the probe still decides for the rest. */
const REFUSED_TYPES = /^audio\/(mpeg|mp3|mpeg3|x-mpeg|aac|x-aac|mp4|x-m4a|m4a|ogg|opus|webm|vorbis)$/i;

function checkUploadKey(errors: FieldErrors, path: string, upload: UploadRow | undefined, releaseId: number): void {
  if (!upload || upload.release_id !== releaseId) {
    errors.add(path, 'unknown upload key for this release; ask for one with POST …/tracks/upload-url');
  } else if (upload.state !== 'ready') {
    errors.add(path, upload.reason ? `the upload was refused: ${upload.reason}` : 'the file has not been uploaded yet; PUT it to its upload_url first');
  }
}

export const handlers: HandlerMap = {
  listTracks({ user, params }, { db }): TrackResource[] {
    const r = getRelease(db, user.id, parseId(params.releaseId, 'release'));
    return listTrackResources(db, r.row.id);
  },

  getTrack({ user, params }, { db }): TrackResource {
    const r = getRelease(db, user.id, parseId(params.releaseId, 'release'));
    const trackId = parseId(params.trackId, 'track');
    const t = findTrackResource(db, r.row.id, trackId);
    if (!t) throw notFound(`track ${trackId} of release ${r.row.id}`);
    return t;
  },

  createTrackUploadUrl({ user, params, body: b, baseUrl }, deps): TrackUploadUrlData {
    const r = getRelease(deps.db, user.id, parseId(params.releaseId, 'release'));
    assertAllowed(r.row.status, 'upload');
    if (REFUSED_TYPES.test(b.content_type.split(';')[0]!.trim())) {
      throw new ServiceError(422, 'audio_format_not_accepted', `${b.content_type} is lossy audio; only lossless WAV, FLAC or AIFF is accepted`);
    }
    if (b.part_size !== undefined && partCount(b.size, b.part_size) > uploadPartBounds.maxParts) {
      const errors = new FieldErrors();
      errors.add('part_size', `a file of ${b.size} bytes in parts of ${b.part_size} is more than ${uploadPartBounds.maxParts} parts; ask for larger parts`);
      errors.throwIfAny();
    }
    return issueUploadAddress(deps, baseUrl, {
      userId: user.id,
      releaseId: r.row.id,
      filename: b.filename,
      contentType: b.content_type,
      sendContentType: uploadContentTypeFor(b.content_type),
      size: b.size,
      sha256: b.sha256,
      kind: 'audio',
      partSize: b.part_size,
      resumeKey: b.resume_key,
    });
  },

  replaceReleaseTracks({ user, params, body, raw, requestId }, deps): ReleaseResource {
    const inputs = tracksOf(body);
    return editReleaseTracks(deps, userActor(user, requestId), params.releaseId, (r, rows) => {
      const releaseId = r.row.id;
      // Checked inside the write's transaction, so two writers based on one read cannot both win.
      requireIfMatch(raw.req.header('if-match'), () => etagOfBody(listTrackResources(deps.db, releaseId)), `the track list of release ${releaseId}`);
      assertAllowed(r.row.status, 'edit_tracks');
      const existing = new Map(rows.map((t) => [t.id, t]));
      const errors = new FieldErrors();
      const writes: TrackWrite[] = [];
      const seenIds = new Set<number>();
      const seenKeys = new Map<string, number>();
      const nextPosition = new Map<number, number>();
      inputs.forEach((t, i) => {
        const p = `tracks.${i}`;
        let old: (typeof existing extends Map<number, infer V> ? V : never) | undefined;
        if (t.id !== undefined) {
          const id = /^[1-9][0-9]{0,15}$/.test(String(t.id)) ? Number(t.id) : NaN;
          old = existing.get(id);
          if (!old) errors.add(`${p}.id`, `release ${releaseId} has no track ${t.id}`);
          else if (seenIds.has(id)) errors.add(`${p}.id`, `track ${t.id} is listed twice`);
          else seenIds.add(id);
        }
        if (t.file_key !== undefined) {
          checkUploadKey(errors, `${p}.file_key`, findUpload(deps.db, t.file_key), releaseId);
          const first = seenKeys.get(t.file_key);
          if (first !== undefined) errors.add(`${p}.file_key`, `the same file is already attached to tracks.${first}`);
          seenKeys.set(t.file_key, i);
        }
        checkLanguage(errors, `${p}.audio_language`, t.audio_language, true);
        checkArtistIds(errors, deps.db, user.id, `${p}.artists`, t.artists);
        const oldData = old ? (JSON.parse(old.data) as TrackData) : undefined;
        const disc = t.disc ?? old?.disc ?? 1;
        const position = t.position ?? (nextPosition.get(disc) ?? 0) + 1;
        nextPosition.set(disc, Math.max(nextPosition.get(disc) ?? 0, position));
        let isrc: string | null;
        if (t.isrc !== undefined) {
          const raw = blankToNull(t.isrc);
          // A valid code is stored compact; an invalid one as given, so submit can say why.
          isrc = raw === null ? null : (checkIsrc(raw, { currentYear: deps.now().getUTCFullYear() }).normalized ?? raw);
        } else {
          isrc = old?.isrc ?? null;
        }
        writes.push({
          ...(old ? { id: old.id } : {}),
          disc,
          position,
          isrc,
          file_key: t.file_key ?? old?.file_key ?? null,
          data: {
            title: t.title,
            version: t.version !== undefined ? blankToNull(t.version) : (oldData?.version ?? null),
            artists: t.artists ?? oldData?.artists ?? r.data.artists,
            contributors: t.contributors ?? oldData?.contributors ?? [],
            explicit: t.explicit ?? oldData?.explicit ?? r.data.explicit,
            audio_language: t.audio_language !== undefined ? t.audio_language : (oldData?.audio_language ?? null),
            preview_start_seconds: t.preview_start_seconds !== undefined ? t.preview_start_seconds : (oldData?.preview_start_seconds ?? null),
          },
        });
      });
      // Positions: unique and contiguous from 1 on each disc.
      const byDisc = new Map<number, number[]>();
      writes.forEach((w) => byDisc.set(w.disc, [...(byDisc.get(w.disc) ?? []), w.position]));
      for (const [disc, positions] of byDisc) {
        const sorted = [...positions].sort((a, b) => a - b);
        const gap = sorted.findIndex((pos, i) => pos !== i + 1);
        if (gap !== -1) {
          const i = writes.findIndex((w) => w.disc === disc && w.position === sorted[gap]);
          errors.add(`tracks.${i}.position`, `positions on disc ${disc} must run 1, 2, 3… without gaps or repeats (got ${sorted.join(', ')})`);
        }
      }
      errors.throwIfAny();
      replaceTracks(deps.db, releaseId, writes, deps.now().toISOString());
    });
  },

  replaceTrackFile({ user, params, body: b, requestId }, deps): ReleaseResource {
    return editReleaseTracks(deps, userActor(user, requestId), params.releaseId, (r, rows) => {
      const trackId = parseId(params.trackId, 'track');
      const track = rows.find((t) => t.id === trackId);
      if (!track) throw notFound(`track ${trackId} of release ${r.row.id}`);
      assertAllowed(r.row.status, 'edit_tracks');
      const errors = new FieldErrors();
      checkUploadKey(errors, 'file_key', findUpload(deps.db, b.file_key), r.row.id);
      const other = rows.find((t) => t.file_key === b.file_key && t.id !== track.id);
      if (other) errors.add('file_key', `the file is already attached to track ${other.id}`);
      errors.throwIfAny();
      setTrackFile(deps.db, track.id, b.file_key, deps.now().toISOString());
    });
  },
};
