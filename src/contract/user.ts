import type { User, UserResource } from './resources.js';

/** The specification's normalization: the wire's snake_case UserResource as the camelCase User. */
export function toUser(raw: UserResource): User {
  return {
    id: raw.id,
    kind: raw.kind,
    name: raw.name,
    email: raw.email,
    labelName: raw.label_name,
    artistName: raw.artist_name,
    country: raw.country,
    createdAt: raw.created_at,
  };
}
