// How much of the disk uploads may hold while they arrive, and how long one may stall. A byte
// count is reserved for the whole declared size when an upload starts (the receiver cuts a body
// off at that size, so it is a bound), and given back when it ends, whatever the outcome. An
// account's complete uploads that no track names yet count too (retention.ts): they stay on the
// disk until attached or expired.
import { ServiceError } from '../handler.js';
import { DEFAULT_UPLOAD_RETENTION, type UploadRetention } from './retention.js';

export interface UploadLimits extends UploadRetention {
  /** Declared bytes one account may have arriving at once, plus its unattached complete uploads. */
  accountBytes: number;
  /** Declared bytes all accounts together may have arriving at once. */
  totalBytes: number;
  /** An upload that sends nothing for this long is cut off (a moving one lives however long it takes). */
  stallMs: number;
}

const GiB = 1024 ** 3;

/** A single file may be 2 GiB (the contract's limit): one account can send two at once. */
export const DEFAULT_UPLOAD_LIMITS: UploadLimits = { accountBytes: 4 * GiB, totalBytes: 16 * GiB, stallMs: 60_000, ...DEFAULT_UPLOAD_RETENTION };

/** `24 h`, `90 min`, `45 s`: the expiry in a refusal. */
function durationInWords(ms: number): string {
  if (ms >= 3_600_000 && ms % 3_600_000 === 0) return `${ms / 3_600_000} h`;
  return ms >= 60_000 && ms % 60_000 === 0 ? `${ms / 60_000} min` : `${Math.round(ms / 1000)} s`;
}

/** Bytes in words for a refusal: `512 MiB`, `4 GiB`. */
function inWords(bytes: number): string {
  if (bytes < 1024 * 1024) return `${bytes} bytes`;
  const gib = bytes / GiB;
  return gib >= 1 ? `${+gib.toFixed(1)} GiB` : `${+(bytes / 1024 ** 2).toFixed(1)} MiB`;
}

export class BytesInFlight {
  private readonly byAccount = new Map<number, number>();
  private total = 0;

  constructor(private readonly limits: UploadLimits) {}

  /**
   * Reserves `bytes` for `accountId`, which holds `unattached` bytes of complete uploads no track
   * names; the returned function gives the reservation back (once).
   */
  reserve(accountId: number, bytes: number, unattached = 0): () => void {
    const mine = this.byAccount.get(accountId) ?? 0;
    const max = this.limits.accountBytes;
    if (mine + unattached + bytes > max) {
      throw new ServiceError(413, 'upload_quota_exceeded', this.overQuota(bytes, mine, unattached));
    }
    if (this.total + bytes > this.limits.totalBytes) {
      throw new ServiceError(507, 'upload_capacity_exceeded', 'the service is receiving as many uploads as it can hold right now; try again in a few minutes', {
        headers: { 'retry-after': '60' },
      });
    }
    this.byAccount.set(accountId, mine + bytes);
    this.total += bytes;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.total -= bytes;
      const left = (this.byAccount.get(accountId) ?? 0) - bytes;
      if (left > 0) this.byAccount.set(accountId, left);
      else this.byAccount.delete(accountId);
    };
  }

  private overQuota(bytes: number, arriving: number, unattached: number): string {
    const max = inWords(this.limits.accountBytes);
    if (bytes > this.limits.accountBytes || (arriving === 0 && unattached === 0))
      return `the file (${inWords(bytes)}) is larger than this service accepts from one account at a time (${max})`;
    if (unattached === 0) {
      return `this account already has ${inWords(arriving)} of uploads arriving; with this file (${inWords(bytes)}) that is more than the ${max} allowed at once; upload it when they have finished`;
    }
    const held = `${inWords(unattached)} of uploaded files attached to no track${arriving > 0 ? ` and ${inWords(arriving)} arriving` : ''}`;
    return (
      `this account holds ${held}; with this file (${inWords(bytes)}) that is more than the ${max} it may hold; ` +
      `attach those files to tracks, or wait: unattached files are deleted ${durationInWords(this.limits.unattachedExpiryMs)} after their upload ` +
      '(on a sandbox, `reldist sandbox prune` deletes them now)'
    );
  }
}
