// Entity tags: a strong validator derived from a body (the same bytes, the same tag, in any
// process), If-None-Match for conditional reads and If-Match for writes based on a read.
import { createHash } from 'node:crypto';
import { ServiceError } from '../handler.js';

export const etagOf = (text: string): string => `"${createHash('sha256').update(text).digest('base64url').slice(0, 27)}"`;

/** The tag a read endpoint answers for `body` (what its handler returned). */
export const etagOfBody = (body: unknown): string => etagOf(JSON.stringify(body));

/** If-None-Match: `*` or a list of tags (weak ones compared weakly, as RFC 9110 says for GET). */
export function matchesEtag(header: string | undefined, tag: string): boolean {
  if (header === undefined) return false;
  return header.split(',').some((t) => {
    const given = t.trim();
    return given === '*' || given === tag || given === `W/${tag}`;
  });
}

/**
 * If-Match: without the header the write goes ahead; with it, one of its tags must be the current
 * one (compared strongly: a weak tag never matches), else 412 and nothing changes.
 */
export function requireIfMatch(header: string | undefined, current: () => string, what: string): void {
  if (header === undefined || header.trim() === '') return;
  const tag = current();
  const tags = header.split(',').map((t) => t.trim());
  if (tags.includes('*') || tags.includes(tag)) return;
  throw new ServiceError(412, 'precondition_failed', `${what} changed since it was read (If-Match ${header.trim()}); read it again and retry`);
}
