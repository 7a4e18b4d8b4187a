// Release endpoints: list, read, create, delete, edit (metadata, delivery, video); submit is in submit.ts.
import { rm } from 'node:fs/promises';
import type { ListReleasesResponse, MessageResponse, QueryOf, ReleaseResource } from '../../contract/index.js';
import { paging } from '../../contract/routes.js';
import { ServiceError, type Committed, type HandlerMap, type ServerDeps } from '../handler.js';
import { etagOfBody, requireIfMatch } from '../http/etag.js';
import { assertAllowed, stateConflict, statusAfterEdit } from '../rules/state-machine.js';
import { parseId } from '../store/ids.js';
import {
  blankToNull,
  catalogKey,
  defaultDelivery,
  defaultVideo,
  deleteReleaseRow,
  getRelease,
  insertRelease,
  listReleases,
  releaseWithCatalogNumber,
  saveRelease,
  toReleaseResource,
  upcColumns,
  type Release,
  type ReleaseData,
} from '../store/releases.js';
import { listTrackRows, trackResourcesOf, type TrackRow } from '../store/tracks.js';
import { uploadFilePath, uploadKeysOfRelease } from '../store/uploads.js';
import { FieldErrors, checkArtistIds, checkCountries, checkGenre, checkLanguage, checkStores } from '../rules/fields.js';
import { beforeEdit, recordCreated, recordDeleted, recordEdit } from '../events/record.js';
import { userActor, type UserActor } from '../store/events.js';
import { artworkToStore } from './artwork.js';

const iso = (deps: ServerDeps) => deps.now().toISOString();

/**
 * A catalog number names one release per account (compared trimmed and case-insensitively).
 * Called inside the IMMEDIATE write transaction that stores the number, so no other process can
 * take the same number between the check and the write (see the migration for why no unique index).
 */
function assertCatalogNumberFree(deps: ServerDeps, userId: number, catalogNumber: string | null, exceptId?: number): void {
  const holder = releaseWithCatalogNumber(deps.db, userId, catalogNumber, exceptId);
  if (!holder) return;
  throw new ServiceError(409, 'catalog_number_taken', `catalog number ${catalogNumber} is already used by release ${holder.id} (${holder.status})`, {
    details: { release_id: holder.id, status: holder.status },
  });
}

/**
 * Reads the caller's release, applies `edit` and saves it in one transaction, with its event
 * (release.updated: the fields it changed). `ifMatch`: the request's If-Match, checked in that
 * transaction against the release as GET /releases/{id} answers it.
 */
export function editRelease(deps: ServerDeps, by: UserActor, rawId: unknown, edit: (r: Release) => void, ifMatch?: string): ReleaseResource {
  return saveEdit(deps, by, rawId, ifMatch, false, edit);
}

/**
 * The same for an edit of the tracks, whose event (release.tracks_changed) lists the tracks it
 * changed: `edit` gets the release's track rows as they are before it, read once for it and for
 * the event (so it must not change them).
 */
export function editReleaseTracks(deps: ServerDeps, by: UserActor, rawId: unknown, edit: (r: Release, tracks: readonly TrackRow[]) => void): ReleaseResource {
  return saveEdit(deps, by, rawId, undefined, true, (r, tracks) => edit(r, tracks ?? []));
}

function saveEdit(
  deps: ServerDeps,
  by: UserActor,
  rawId: unknown,
  ifMatch: string | undefined,
  withTracks: boolean,
  edit: (r: Release, tracks: readonly TrackRow[] | undefined) => void,
): ReleaseResource {
  const id = parseId(rawId, 'release');
  const userId = by.userId;
  return deps.db
    .transaction(() => {
      const r = getRelease(deps.db, userId, id);
      requireReleaseIfMatch(deps.db, r, ifMatch);
      const tracks = withTracks ? listTrackRows(deps.db, id) : undefined;
      const before = beforeEdit(r, tracks);
      edit(r, tracks);
      saveRelease(deps.db, r, iso(deps), { status: statusAfterEdit(r.row.status) });
      const after = toReleaseResource(deps.db, getRelease(deps.db, userId, id), true);
      recordEdit(deps.db, by, before, after, userId);
      return after;
    })
    .immediate();
}

/**
 * If-Match on a release write (metadata, delivery, video, submit): the ETag of GET /releases/{id}
 * the change was based on; another writer's change since is 412 and nothing is written. Called
 * inside the write's transaction, so of writers based on one read exactly one gets through.
 */
export function requireReleaseIfMatch(db: ServerDeps['db'], r: Release, header: string | undefined): void {
  requireIfMatch(header, () => etagOfBody(toReleaseResource(db, r, true)), `release ${r.row.id}`);
}

/** GET /releases/{releaseId}: the Hono route's handler and the fast lane's (http/fast-lane.ts). */
export function readRelease(db: ServerDeps['db'], userId: number, releaseId: string | number): ReleaseResource {
  return toReleaseResource(db, getRelease(db, userId, parseId(releaseId, 'release')), true);
}

/** GET /releases: the Hono route's handler and, for a request without a query string, the fast lane's. */
export function listReleasesPage(db: ServerDeps['db'], userId: number, query: QueryOf<'listReleases'>): ListReleasesResponse {
  const page = query.page ?? paging.defaultPage;
  const perPage = query.perPage ?? paging.defaultPerPage;
  const { rows, total } = listReleases(db, userId, {
    status: query.status,
    type: query.type,
    search: query.search,
    catalogNumber: query.catalog_number,
    page,
    perPage,
  });
  // With tracks: every track of the page in one query, not one per release.
  const tracks =
    query.include === 'tracks'
      ? trackResourcesOf(
          db,
          rows.map((r) => r.row.id),
        )
      : undefined;
  return {
    data: rows.map((r) => toReleaseResource(db, r, tracks?.get(r.row.id) ?? false, r.trackCount)),
    meta: { page, per_page: perPage, total, total_pages: Math.ceil(total / perPage) },
  };
}

export const handlers: HandlerMap = {
  listReleases: ({ user, query }, { db }) => listReleasesPage(db, user.id, query),

  getRelease: ({ user, params }, { db }) => readRelease(db, user.id, params.releaseId),

  createRelease({ user, body: b, requestId }, deps): ReleaseResource {
    const errors = new FieldErrors();
    const genre = checkGenre(errors, 'genre', b.genre);
    checkLanguage(errors, 'language', b.language);
    checkArtistIds(errors, deps.db, user.id, 'artists', b.artists);
    const artwork = artworkToStore(deps, errors, undefined, b.artwork ?? null);
    errors.throwIfAny();
    const data: ReleaseData = {
      version: blankToNull(b.version),
      artists: b.artists,
      label: b.label,
      catalog_number: blankToNull(b.catalog_number),
      genre: genre ?? null,
      subgenre: blankToNull(b.subgenre),
      language: b.language ?? null,
      p_line: b.p_line ?? null,
      c_line: b.c_line ?? null,
      original_release_date: b.original_release_date ?? null,
      explicit: b.explicit ?? 'not_explicit',
      artwork,
      delivery: defaultDelivery(),
      video: defaultVideo(),
      review: null,
    };
    const id = deps.db
      .transaction(() => {
        assertCatalogNumberFree(deps, user.id, data.catalog_number);
        const created = insertRelease(deps.db, user.id, { type: b.type, title: b.title, upc: blankToNull(b.upc) }, data, iso(deps));
        recordCreated(
          deps.db,
          userActor(user, requestId),
          { userId: user.id, releaseId: created, catalogNumber: data.catalog_number, title: b.title, type: b.type },
          iso(deps),
        );
        return created;
      })
      .immediate();
    return toReleaseResource(deps.db, getRelease(deps.db, user.id, id), true);
  },

  async deleteRelease({ user, params, requestId, commit }, deps): Promise<Committed<MessageResponse>> {
    const id = parseId(params.releaseId, 'release');
    let keys: string[] = [];
    const answer = commit(() => {
      const r = getRelease(deps.db, user.id, id);
      assertAllowed(r.row.status, 'delete');
      keys = uploadKeysOfRelease(deps.db, id);
      deleteReleaseRow(deps.db, id);
      recordDeleted(deps.db, userActor(user, requestId), r, iso(deps));
      return { message: `Release ${id} deleted.` };
    });
    // Files go after the rows (and the answer): a crash in between leaves an orphan file, never a
    // dangling row; `force` makes a file already gone no failure.
    await Promise.all(keys.map((k) => rm(uploadFilePath(deps.dataDir, k), { force: true })));
    return answer;
  },

  updateReleaseMetadata({ user, params, body: b, requestId, raw }, deps): ReleaseResource {
    return editRelease(
      deps,
      userActor(user, requestId),
      params.releaseId,
      (r) => {
        assertAllowed(r.row.status, 'edit_metadata');
        const frozen = r.row.status === 'delivered' || r.row.status === 'live';
        // Compared as products (padded to 14 digits), so the same code written another way is no change.
        const sameUpc = (given: string | null) => {
          const c = upcColumns(given);
          return c.upc_gtin14 !== null ? c.upc_gtin14 === r.row.upc_gtin14 : c.upc === r.row.upc;
        };
        if (frozen && b.upc !== undefined && !sameUpc(blankToNull(b.upc))) {
          throw stateConflict(r.row.status, 'its UPC never changes after delivery');
        }
        if (frozen && b.label !== undefined && b.label !== r.data.label) {
          throw stateConflict(r.row.status, 'its label never changes after delivery');
        }
        const errors = new FieldErrors();
        const genre = checkGenre(errors, 'genre', b.genre);
        checkLanguage(errors, 'language', b.language);
        checkArtistIds(errors, deps.db, user.id, 'artists', b.artists);
        const artwork = b.artwork === undefined ? undefined : artworkToStore(deps, errors, r.row.id, b.artwork);
        errors.throwIfAny();
        if (b.type !== undefined) r.row.type = b.type;
        if (b.title !== undefined) r.row.title = b.title;
        if (b.upc !== undefined && !frozen) r.row.upc = blankToNull(b.upc);
        const d = r.data;
        if (b.version !== undefined) d.version = blankToNull(b.version);
        if (b.artists !== undefined) d.artists = b.artists;
        if (b.label !== undefined) d.label = b.label;
        if (b.catalog_number !== undefined) {
          const next = blankToNull(b.catalog_number);
          // Only a change is checked, so duplicates stored before the rule stay editable.
          if (catalogKey(next) !== catalogKey(d.catalog_number)) assertCatalogNumberFree(deps, user.id, next, r.row.id);
          d.catalog_number = next;
        }
        if (genre !== undefined) d.genre = genre;
        if (b.subgenre !== undefined) d.subgenre = blankToNull(b.subgenre);
        if (b.language !== undefined) d.language = b.language;
        if (b.p_line !== undefined) d.p_line = b.p_line;
        if (b.c_line !== undefined) d.c_line = b.c_line;
        if (b.original_release_date !== undefined) d.original_release_date = b.original_release_date;
        if (b.explicit !== undefined) d.explicit = b.explicit;
        if (artwork !== undefined) d.artwork = artwork;
      },
      raw.req.header('if-match'),
    );
  },

  updateReleaseDelivery({ user, params, body: b, requestId, raw }, deps): ReleaseResource {
    return editRelease(
      deps,
      userActor(user, requestId),
      params.releaseId,
      (r) => {
        assertAllowed(r.row.status, 'edit_delivery');
        const errors = new FieldErrors();
        if (Array.isArray(b.platforms)) checkStores(errors, 'platforms', b.platforms);
        if (b.territories) {
          checkCountries(errors, 'territories.countries', b.territories.countries);
          if (b.territories.mode === 'worldwide' && b.territories.countries.length > 0) {
            errors.add('territories.countries', 'must be empty with mode "worldwide"; use mode "exclude" to leave countries out');
          }
          if (b.territories.mode !== 'worldwide' && b.territories.countries.length === 0) {
            errors.add('territories.countries', `name at least one country with mode "${b.territories.mode}"`);
          }
        }
        errors.throwIfAny();
        const d = r.data.delivery;
        if (b.platforms !== undefined) d.platforms = Array.isArray(b.platforms) ? [...new Set(b.platforms)] : b.platforms;
        if (b.territories !== undefined) d.territories = { mode: b.territories.mode, countries: [...new Set(b.territories.countries)] };
        if (b.release_date !== undefined) d.release_date = b.release_date;
        if (b.preorder_date !== undefined) d.preorder_date = b.preorder_date;
        if (b.price_tier !== undefined) d.price_tier = b.price_tier;
      },
      raw.req.header('if-match'),
    );
  },

  updateReleaseVideo({ user, params, body: b, requestId, raw }, deps): ReleaseResource {
    return editRelease(
      deps,
      userActor(user, requestId),
      params.releaseId,
      (r) => {
        assertAllowed(r.row.status, 'edit_video');
        const v = r.data.video;
        if (b.enabled !== undefined) v.enabled = b.enabled;
        if (b.art_tracks !== undefined) v.art_tracks = b.art_tracks;
        if (b.content_id?.enabled !== undefined) v.content_id.enabled = b.content_id.enabled;
        if (b.content_id?.policy !== undefined) v.content_id.policy = b.content_id.policy;
      },
      raw.req.header('if-match'),
    );
  },
};
