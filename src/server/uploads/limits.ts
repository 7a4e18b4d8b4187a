// How much of the disk uploads may hold while they arrive, and how long one may stall. A byte
// count is reserved for the whole declared size when an upload starts (the receiver cuts a body
// off at that size, so it is a bound), and given back when it ends, whatever the outcome.
import { ServiceError } from '../handler.js';

export interface UploadLimits {
  /** Declared bytes one account may have arriving at once. */
  accountBytes: number;
  /** Declared bytes all accounts together may have arriving at once. */
  totalBytes: number;
  /** An upload that sends nothing for this long is cut off (a moving one lives however long it takes). */
  stallMs: number;
}

const GiB = 1024 ** 3;

/** A single file may be 2 GiB (the contract's limit): one account can send two at once. */
export const DEFAULT_UPLOAD_LIMITS: UploadLimits = { accountBytes: 4 * GiB, totalBytes: 16 * GiB, stallMs: 60_000 };

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

  /** Reserves `bytes` for `accountId`; the returned function gives them back (once). */
  reserve(accountId: number, bytes: number): () => void {
    const mine = this.byAccount.get(accountId) ?? 0;
    if (mine + bytes > this.limits.accountBytes) {
      throw new ServiceError(
        413,
        'upload_quota_exceeded',
        mine === 0
          ? `the file (${inWords(bytes)}) is larger than this service accepts from one account at a time (${inWords(this.limits.accountBytes)})`
          : `this account already has ${inWords(mine)} of uploads arriving; with this file (${inWords(bytes)}) that is more than the ${inWords(this.limits.accountBytes)} allowed at once; upload it when they have finished`,
      );
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
}
