// Shared by the artist-platform and preference handlers: turning a pasted link or id into a
// directory profile, with errors that name the field the input came from.
import { ServiceError } from '../handler.js';
import type { ArtistDirectory, ArtistPlatformResult } from './directory.js';
import type { ArtistPlatform } from './platforms.js';
import { resolveArtistLink, type ResolveOutcome } from './resolve.js';

/** Resolve or fail: not found → 404; unusable input → 400 (query) or 422 with the field (body). */
export async function resolveOrThrow(
  directory: ArtistDirectory,
  input: string,
  platform: ArtistPlatform | undefined,
  source: { in: 'query' | 'body'; field: string },
): Promise<ArtistPlatformResult> {
  const outcome = await resolveArtistLink(directory, input, platform);
  if (outcome.ok) return outcome.result;
  if (outcome.reason === 'not_found') throw new ServiceError(404, 'not_found', outcome.message);
  if (source.in === 'query') throw new ServiceError(400, 'invalid_query', `${source.field}: ${outcome.message}`);
  throw new ServiceError(422, 'validation_failed', `${source.field}: ${outcome.message}`, {
    fields: { [source.field]: [outcome.message] },
  });
}

/** The outcome without throwing, for handlers that collect every field error first. */
export async function resolveChoice(directory: ArtistDirectory, input: string, platform: ArtistPlatform): Promise<ResolveOutcome> {
  return resolveArtistLink(directory, input, platform);
}
