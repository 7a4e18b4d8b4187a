// Credits from the command line, by role: `--composer NAME` (repeatable) sets a track's composers,
// `--composer ""` removes them, `--contributor ROLE=NAME` does the same for any role; the other
// roles stay as they are. Tracks (artists and contributors) and releases (artists) alike.
import type { ArtistCredit, Contributor } from '../../contract/index.js';
import { UsageError } from '../errors.js';

export const ARTIST_ROLES = ['primary', 'featuring', 'with', 'remixer'] as const satisfies readonly ArtistCredit['role'][];
export const CONTRIBUTOR_ROLES = [
  'composer',
  'lyricist',
  'producer',
  'arranger',
  'performer',
  'mixer',
  'mastering_engineer',
  'conductor',
  'publisher',
] as const satisfies readonly Contributor['role'][];
export type CreditRole = ArtistCredit['role'] | Contributor['role'];

/** The flag of each role (`--artist` for primary): the words of messages and hints. */
export const FLAG_OF_ROLE: Record<CreditRole, string> = {
  primary: '--artist',
  featuring: '--featuring',
  with: '--with',
  remixer: '--remixer',
  composer: '--composer',
  lyricist: '--lyricist',
  producer: '--producer',
  arranger: '--arranger',
  performer: '--performer',
  mixer: '--mixer',
  mastering_engineer: '--mastering-engineer',
  conductor: '--conductor',
  publisher: '--publisher',
};

/** The role flags as commander names them (camelCase options). */
export interface RoleFlags {
  artist?: string[] | undefined;
  featuring?: string[] | undefined;
  with?: string[] | undefined;
  remixer?: string[] | undefined;
  composer?: string[] | undefined;
  lyricist?: string[] | undefined;
  producer?: string[] | undefined;
  arranger?: string[] | undefined;
  performer?: string[] | undefined;
  mixer?: string[] | undefined;
  masteringEngineer?: string[] | undefined;
  conductor?: string[] | undefined;
  publisher?: string[] | undefined;
  contributor?: string[] | undefined;
}

const OPTION_OF_ROLE: Record<CreditRole, keyof RoleFlags> = {
  primary: 'artist',
  featuring: 'featuring',
  with: 'with',
  remixer: 'remixer',
  composer: 'composer',
  lyricist: 'lyricist',
  producer: 'producer',
  arranger: 'arranger',
  performer: 'performer',
  mixer: 'mixer',
  mastering_engineer: 'masteringEngineer',
  conductor: 'conductor',
  publisher: 'publisher',
};

/** Role → the names it gets (an empty list removes the role); only the roles given. */
export type CreditChanges = Map<CreditRole, string[]>;

function roleOf(text: string, allowed: readonly CreditRole[]): CreditRole | undefined {
  const v = text
    .trim()
    .toLowerCase()
    .replace(/[\s-]+/g, '_');
  const role = (v === 'artist' ? 'primary' : v) as CreditRole;
  return allowed.includes(role) ? role : undefined;
}

/** The role flags given, as changes; `allowed` are the roles this command's credits have. */
export function creditChanges(flags: RoleFlags, allowed: readonly CreditRole[]): CreditChanges {
  const changes: CreditChanges = new Map();
  const add = (role: CreditRole, name: string, flag: string) => {
    const names = changes.get(role) ?? [];
    changes.set(role, names);
    const n = name.trim();
    if (n === '') return; // "" removes the role: the list stays empty
    if (n.length > 120) throw new UsageError(`${flag}: a name has at most 120 characters, got ${n.length}`);
    if (!names.some((x) => x.toLowerCase() === n.toLowerCase())) names.push(n);
  };
  for (const role of allowed) {
    for (const name of flags[OPTION_OF_ROLE[role]] ?? []) add(role, name, FLAG_OF_ROLE[role]);
  }
  for (const given of flags.contributor ?? []) {
    const m = /^([^=]+)=(.*)$/.exec(given);
    const role = m ? roleOf(m[1]!, allowed) : undefined;
    if (!m || !role) {
      throw new UsageError(
        `--contributor: expected ROLE=NAME with ROLE one of ${allowed.join(', ')}, got "${given}"`,
        'e.g. --contributor composer="Ada Lind"; ROLE= (no name) removes that role',
      );
    }
    add(role, m[2]!, '--contributor');
  }
  return changes;
}

/** Credits with the changed roles replaced, in place of the first entry of each role; the others kept. */
export function applyCreditChanges<C extends { name: string; role: string }>(
  current: readonly C[],
  changes: CreditChanges,
  roles: readonly CreditRole[],
  make: (name: string, role: CreditRole) => C,
): C[] {
  const out: C[] = [];
  const placed = new Set<string>();
  for (const c of current) {
    const names = changes.get(c.role as CreditRole);
    if (names === undefined) {
      out.push(c);
      continue;
    }
    if (placed.has(c.role)) continue;
    placed.add(c.role);
    // An unchanged entry keeps what it had (a label artist's id).
    out.push(...names.map((n) => current.find((x) => x.role === c.role && x.name === n) ?? make(n, c.role as CreditRole)));
  }
  for (const role of roles) {
    const names = changes.get(role);
    if (names !== undefined && !placed.has(role)) out.push(...names.map((n) => make(n, role)));
  }
  return out;
}

/** "composer Ada Lind, Tom Ash; lyricist removed": what a change does, for the success line. */
export function creditChangesText(changes: CreditChanges): string {
  return [...changes].map(([role, names]) => `${role.replace(/_/g, ' ')} ${names.length === 0 ? 'removed' : names.join(', ')}`).join('; ');
}
