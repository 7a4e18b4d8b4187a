// Reads what a cover image really is, from its bytes (src/artwork: the same probe the CLI runs
// offline in `artwork check`); refuses what no cover can be.
import { probeArtwork } from '../../artwork/probe.js';
import type { ArtworkFacts } from '../../artwork/rules.js';
import { ServiceError } from '../handler.js';

/** Probes the image at `path`; throws a 422 ServiceError saying why no cover can be made of it. */
export async function probeArtworkUpload(path: string): Promise<ArtworkFacts> {
  const probe = await probeArtwork(path);
  if (!probe.ok) throw new ServiceError(422, probe.refusal.code, probe.refusal.message);
  return probe.facts;
}
