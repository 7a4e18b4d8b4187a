// GET /me: the current user, snake_case as on the wire.
import type { UserResource } from '../../contract/index.js';
import type { HandlerMap } from '../handler.js';
import { getUserRow } from '../store/users.js';

export const handlers: HandlerMap = {
  getMe({ user }, { db }): UserResource {
    const u = getUserRow(db, user.id);
    return {
      id: u.id,
      kind: u.kind,
      name: u.name,
      email: u.email,
      label_name: u.label_name,
      artist_name: u.artist_name,
      country: u.country,
      created_at: u.created_at,
    };
  },
};
