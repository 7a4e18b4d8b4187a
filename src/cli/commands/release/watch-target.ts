// What `release watch --for X` waits for: from a release's state, whether it got there, was
// rejected, can no longer get there, or is still on its way. Pure, so it is tested alone.
import type { ReleaseStatus } from '../../../contract/index.js';

export type WatchTarget = 'reviewed' | 'approved' | 'live';

export type Verdict = { kind: 'waiting' } | { kind: 'reached' } | { kind: 'rejected' } | { kind: 'unreachable'; why: string };

const ORDER: Partial<Record<ReleaseStatus, number>> = { approved: 1, delivered: 2, live: 3 };
const NEEDED: Record<WatchTarget, number> = { reviewed: 1, approved: 1, live: 3 };

export function verdictOf(status: ReleaseStatus, target: WatchTarget): Verdict {
  switch (status) {
    case 'rejected':
      return { kind: 'rejected' };
    case 'in_review':
      return { kind: 'waiting' };
    case 'draft':
      return { kind: 'unreachable', why: 'is a draft (never submitted, or withdrawn from review): submit it first' };
    case 'taken_down':
      return { kind: 'unreachable', why: 'was taken down' };
    default:
      return (ORDER[status] ?? 0) >= NEEDED[target] ? { kind: 'reached' } : { kind: 'waiting' };
  }
}

/** `be reviewed`, `be approved`, `go live`: for messages. */
export function targetWords(target: WatchTarget): string {
  return target === 'live' ? 'go live' : `be ${target}`;
}
