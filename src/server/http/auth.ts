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

/**
 * `demoTokens: false` refuses the demo accounts' tokens (a shared service over a former sandbox's
 * data); `known` is this request's token as already looked up.
 */
export function authenticate(
  db: Database,
  header: string | undefined,
  options: { demoTokens: boolean } = { demoTokens: true },
  known?: { token: string; user: AuthUser | undefined },
): AuthUser {
  if (!header) throw unauthorized('missing Authorization header; send "Authorization: Bearer <token>"');
  const token = bearerToken(header);
  if (!token) throw unauthorized('malformed Authorization header; expected "Bearer <token>"');
  // The same token already looked up for this request (by the rate limiter): not hashed and queried again.
  const user = known?.token === token ? known.user : findUserByToken(db, token, options);
  if (!user) throw unauthorized('the token was not recognised');
  return user;
}
