// Bearer tokens, compared by their sha256 hash. The token is never logged or echoed.
import type { Database } from 'better-sqlite3';
import { ServiceError, type AuthUser } from '../handler.js';
import { findUserByToken } from '../store/users.js';

const unauthorized = (message: string) =>
  new ServiceError(401, 'unauthorized', message, { headers: { 'www-authenticate': 'Bearer realm="reldist"' } });

/** The raw token from `Authorization: Bearer <token>`, or undefined. */
export function bearerToken(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const m = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(header);
  return m?.[1];
}

/** `demoTokens: false` refuses the demo accounts' tokens (a shared service over a former sandbox's data). */
export function authenticate(db: Database, header: string | undefined, options: { demoTokens: boolean } = { demoTokens: true }): AuthUser {
  if (!header) throw unauthorized('missing Authorization header; send "Authorization: Bearer <token>"');
  const token = bearerToken(header);
  if (!token) throw unauthorized('malformed Authorization header; expected "Bearer <token>"');
  const user = findUserByToken(db, token, options);
  if (!user) throw unauthorized('the token was not recognised');
  return user;
}
