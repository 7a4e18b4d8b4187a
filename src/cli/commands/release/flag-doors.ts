// The release flags as a door (shared/field-checks.ts): which flag set the value at a rule's path.
import type { ArtistCredit } from '../../../contract/index.js';
import type { Locate } from '../../shared/field-checks.js';
import { FLAG_OF_FIELD } from './flags.js';

const FLAG_OF_ROLE: Record<ArtistCredit['role'], string> = { primary: '--artist', featuring: '--featuring', with: '--with', remixer: '--remixer' };

/** `metadata` and `delivery` are the bodies built from the flags alone (build.ts). */
export function flagLocate(metadata: Record<string, unknown>, delivery: Record<string, unknown> = {}): Locate {
  return (path) => {
    const [head, next] = path.split('.');
    if (head === 'delivery') return next !== undefined && delivery[next] !== undefined ? FLAG_OF_FIELD[next] : undefined;
    if (head === undefined || metadata[head] === undefined) return undefined;
    if (head === 'artists' && next !== undefined) {
      const credit = (metadata.artists as ArtistCredit[] | undefined)?.[Number(next)];
      return credit ? FLAG_OF_ROLE[credit.role] : undefined;
    }
    return FLAG_OF_FIELD[head];
  };
}

/** Flags first, then a file's place: the value a flag set is the flag's. */
export function eitherLocate(...locates: Locate[]): Locate {
  return (path) => {
    for (const l of locates) {
      const where = l(path);
      if (where !== undefined) return where;
    }
    return undefined;
  };
}
