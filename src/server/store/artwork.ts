// Cover images: uploads of kind 'image' (store/uploads.ts keeps their rows beside the audio
// ones) with the facts read from their bytes, and the stored form of a release's cover.
import type { Database } from 'better-sqlite3';
import type { ArtworkFacts } from '../../artwork/rules.js';
import type { Artwork, ArtworkResource } from '../../contract/index.js';
import type { ServerModule } from '../handler.js';
import { artworkMigrations } from '../db/artwork-migrations.js';
import { statement } from './statements.js';
import type { UploadRow } from './uploads.js';

export const artworkModule: ServerModule = { component: 'artwork', migrations: artworkMigrations };

/**
 * A release's cover as stored in its JSON: the resource itself, or, in releases written before
 * uploads, the declared form without `verified` (read as an unverified cover).
 */
export type StoredArtwork = ArtworkResource | Artwork;

/** `sha256`: the digest of the bytes received. */
export function markArtworkUploadReady(db: Database, key: string, facts: ArtworkFacts, sha256: string, nowIso: string): void {
  statement(
    db,
    "UPDATE uploads SET state = 'ready', reason = NULL, signed_sha256 = COALESCE(signed_sha256, sha256), sha256 = ?, format = ?, image = ?, uploaded_at = ? WHERE key = ?",
  ).run(sha256, facts.format, JSON.stringify(facts), nowIso, key);
}

/** The cover a ready image upload makes. */
export function artworkOfUpload(upload: UploadRow): ArtworkResource {
  const facts = JSON.parse(upload.image ?? '{}') as ArtworkFacts;
  return {
    verified: true,
    file_key: upload.key,
    filename: upload.filename,
    url: null,
    format: facts.format,
    width: facts.width,
    height: facts.height,
    color_space: facts.color_space,
    bit_depth: facts.bit_depth,
    icc_profile: facts.icc_profile,
    progressive: facts.progressive,
    size: upload.size,
    sha256: upload.sha256,
  };
}

/** A declared cover (older clients), as stored and shown: the client's facts, nothing verified. */
export function declaredArtwork(a: Artwork): ArtworkResource {
  return {
    verified: false,
    file_key: null,
    filename: null,
    url: a.url,
    format: a.format,
    width: a.width,
    height: a.height,
    color_space: a.color_space,
    bit_depth: null,
    icc_profile: null,
    progressive: null,
    size: null,
    sha256: null,
  };
}

export function artworkResourceOf(stored: StoredArtwork | null): ArtworkResource | null {
  if (stored === null) return null;
  return 'verified' in stored ? stored : declaredArtwork(stored);
}
