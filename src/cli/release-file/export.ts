// A release on the service written back as a release file (docs/release-file.md) that `release
// apply` sees as unchanged: every field as the service stores it, audio referred to by its sha256
// (`file: sha256:…`, no download needed), and only what a file must say. Values the service has
// as none are left out (apply leaves a field the file leaves out as it is), a track's artists and
// explicit when they are the release's (a track without them takes the release's), a track's
// disc and position when its place in the list gives them. Pure: data in, data out.
import type { Artwork, ReleaseResource, TrackResource } from '../../contract/index.js';
import { credits, same } from '../apply/forms.js';
import { storedAudioFile } from './load.js';

export type Exported = { ok: true; data: Record<string, unknown> } | { ok: false; reason: string };

/** The release file's data for a release read with its tracks; or why it cannot be written as one. */
export function exportRelease(release: ReleaseResource): Exported {
  if (release.catalog_number === null || release.catalog_number.trim() === '') {
    return {
      ok: false,
      reason: `no catalog number: apply finds a release by it; give it one (\`reldist release edit ${release.id} --catalog-number …\`) and export it again`,
    };
  }
  const tracks = [...(release.tracks ?? [])].sort((a, b) => a.disc - b.disc || a.position - b.position);
  const r = release;
  const data: Record<string, unknown> = {
    type: r.type,
    title: r.title,
    version: r.version ?? undefined,
    artists: r.artists.map(credit),
    label: r.label,
    catalog_number: r.catalog_number,
    upc: r.upc ?? undefined,
    genre: r.genre ?? undefined,
    subgenre: r.subgenre ?? undefined,
    language: r.language ?? undefined,
    p_line: r.p_line ?? undefined,
    c_line: r.c_line ?? undefined,
    original_release_date: r.original_release_date ?? undefined,
    explicit: r.explicit,
    artwork: exportArtwork(r.artwork),
    tracks: tracks.length > 0 ? exportTracks(r, tracks) : undefined,
    delivery: {
      platforms: r.delivery.platforms,
      territories: r.delivery.territories.mode === 'worldwide' ? { mode: 'worldwide' } : r.delivery.territories,
      release_date: r.delivery.release_date ?? undefined,
      preorder_date: r.delivery.preorder_date ?? undefined,
      price_tier: r.delivery.price_tier ?? undefined,
    },
    video: r.video,
  };
  return { ok: true, data };
}

function credit(a: ReleaseResource['artists'][number]): Record<string, unknown> {
  return { name: a.name, role: a.role, artist_id: a.artist_id ?? undefined };
}

function exportTracks(release: ReleaseResource, tracks: readonly TrackResource[]): Record<string, unknown>[] {
  const multiDisc = tracks.some((t) => t.disc !== 1);
  // The place the file's order gives a track (as apply's trackSlots reads it): said only when it differs.
  const last = new Map<number, number>();
  return tracks.map((t) => {
    const implied = (last.get(t.disc) ?? 0) + 1;
    last.set(t.disc, Math.max(last.get(t.disc) ?? 0, t.position));
    return {
      // A track without audio yet is written without `file`: apply leaves it so, and its submit says what blocks.
      file: t.file?.state === 'ready' ? storedAudioFile(t.file.sha256) : undefined,
      title: t.title,
      version: t.version ?? undefined,
      disc: multiDisc ? t.disc : undefined,
      position: t.position === implied ? undefined : t.position,
      artists: same(credits(t.artists), credits(release.artists)) ? undefined : t.artists.map(credit),
      contributors: t.contributors.length > 0 ? t.contributors : undefined,
      isrc: t.isrc ?? undefined,
      explicit: t.explicit === release.explicit ? undefined : t.explicit,
      audio_language: t.audio_language ?? undefined,
      preview_start_seconds: t.preview_start_seconds ?? undefined,
    };
  });
}

/** Characters a file name keeps as they are; others become "_". */
const UNSAFE = /[^A-Za-z0-9._-]/g;

/** The file name of a release, from its catalog number: `NLR-0042.yaml`. */
export function exportFileName(catalogNumber: string, ext: 'yaml' | 'json'): string {
  const base = catalogNumber.trim().replace(UNSAFE, '_').replace(/^\.+/, '_');
  return `${base}.${ext}`;
}

/** An uploaded cover by its sha256 (apply sees it unchanged without the image); a declared one as it was declared. */
function exportArtwork(a: ReleaseResource['artwork']): string | Artwork | undefined {
  if (!a) return undefined;
  if (a.verified && a.sha256) return storedAudioFile(a.sha256);
  if (a.url === null) return undefined;
  return { url: a.url, width: a.width, height: a.height, format: a.format, color_space: a.color_space };
}
