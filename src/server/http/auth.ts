// Bearer tokens, compared by their sha256 hash. The token is never logged or echoed.
import type { Database } from 'better-sqlite3';
import type { CommitWatch } from '../db/commit-watch.js';
import { ServiceError, type AuthUser } from '../handler.js';
import { findUserByTokenHash, hashToken, tokenGeneration } from '../store/users.js';

const unauthorized = (message: string) => new ServiceError(401, 'unauthorized', message, { headers: { 'www-authenticate': 'Bearer realm="reldist"' } });

/** The raw token from `Authorization: Bearer <token>`, or undefined. */
export function bearerToken(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const m = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(header);
  return m?.[1];
}

/** A token known to the service: its account, and its hash (what may stand for it in memory and logs). */
export interface VerifiedToken {
  user: AuthUser;
  hash: string;
}

/** Enough for every client of one service many times over; beyond it the least recently used goes. */
export const TOKEN_CACHE_SIZE = 1000;

/**
 * Verifies bearer tokens once per process: a known token is hashed and looked up the first time
 * only, then answered from a bounded LRU. Revocation is honoured: every revocation or change of a
 * token or account bumps tokens' generation in the database (triggers, so it holds for any process
 * sharing the data directory), and a moved generation empties the cache; reading it is one row.
 * Unknown tokens are not cached: each costs a look-up, and the rate limiter budgets them per address.
 */
export class TokenVerifier {
  private readonly known = new Map<string, VerifiedToken>();
  private generation = -1;
  private readonly currentGeneration: () => number;

  /**
   * `demoTokens: false` refuses the demo accounts' tokens (a shared service over a former
   * sandbox's data). With `commits`, the generation is read again only after a commit.
   */
  constructor(
    private readonly db: Database,
    private readonly options: { demoTokens: boolean; commits?: CommitWatch },
    private readonly size = TOKEN_CACHE_SIZE,
  ) {
    const read = () => tokenGeneration(db);
    this.currentGeneration = options.commits ? options.commits.memo(read) : read;
  }

  verify(token: string): VerifiedToken | undefined {
    const generation = this.currentGeneration();
    if (generation !== this.generation) {
      this.known.clear();
      this.generation = generation;
    }
    const hit = this.known.get(token);
    if (hit) {
      // Most recently used last: Map keeps insertion order.
      this.known.delete(token);
      this.known.set(token, hit);
      return hit;
    }
    const hash = hashToken(token);
    const user = findUserByTokenHash(this.db, hash, this.options);
    if (!user) return undefined;
    if (this.known.size >= this.size) this.known.delete(this.known.keys().next().value!);
    const verified = { user: Object.freeze(user), hash };
    this.known.set(token, verified);
    return verified;
  }
}

/** `known` is this request's token as already verified (by the rate limiter). */
export function authenticate(header: string | undefined, verifier: TokenVerifier, known?: { token: string; verified: VerifiedToken | undefined }): AuthUser {
  if (!header) throw unauthorized('missing Authorization header; send "Authorization: Bearer <token>"');
  const token = bearerToken(header);
  if (!token) throw unauthorized('malformed Authorization header; expected "Bearer <token>"');
  const verified = known?.token === token ? known.verified : verifier.verify(token);
  if (!verified) throw unauthorized('the token was not recognised');
  return verified.user;
}
