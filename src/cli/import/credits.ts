// Credits from a spreadsheet: `role:Name;role:Name` participants (UMW's form, and the generic
// Participants/Contributors column), and a role named in a contributor sheet, as the release
// file's artist credits (primary, featuring, with, remixer) or contributors (composer…).
import type { ArtistCredit, Contributor } from '../../contract/index.js';

export type Credit = { kind: 'artist'; credit: ArtistCredit } | { kind: 'contributor'; credit: Contributor };

type ArtistRole = ArtistCredit['role'];
type ContributorRole = Contributor['role'];

/** Role words as templates write them (headerKey-like: letters only, lowercase). */
const ARTIST_ROLES: Record<string, ArtistRole> = {
  primary: 'primary',
  primaryartist: 'primary',
  main: 'primary',
  mainartist: 'primary',
  artist: 'primary',
  featuring: 'featuring',
  featured: 'featuring',
  featuredartist: 'featuring',
  featuringartist: 'featuring',
  feat: 'featuring',
  ft: 'featuring',
  with: 'with',
  remixer: 'remixer',
  remix: 'remixer',
  remixedby: 'remixer',
};

const CONTRIBUTOR_ROLES: Record<string, ContributorRole> = {
  composer: 'composer',
  songwriter: 'composer',
  writer: 'composer',
  music: 'composer',
  musicby: 'composer',
  lyricist: 'lyricist',
  lyrics: 'lyricist',
  lyricsby: 'lyricist',
  author: 'lyricist',
  producer: 'producer',
  producedby: 'producer',
  arranger: 'arranger',
  performer: 'performer',
  musician: 'performer',
  mixer: 'mixer',
  mixengineer: 'mixer',
  mixingengineer: 'mixer',
  masteringengineer: 'mastering_engineer',
  mastering: 'mastering_engineer',
  conductor: 'conductor',
  publisher: 'publisher',
};

const roleKey = (role: string) => role.toLowerCase().replace(/[^a-z]/g, '');

/** The credit of a role word and a name, or undefined when the role is none we know. */
export function creditOf(role: string, name: string): Credit | undefined {
  const k = roleKey(role);
  const artist = ARTIST_ROLES[k];
  if (artist) return { kind: 'artist', credit: { name, role: artist } };
  const contributor = CONTRIBUTOR_ROLES[k];
  if (contributor) return { kind: 'contributor', credit: { name, role: contributor } };
  return undefined;
}

/** `primary:Nina Vale;composer:Nina Vale`: the credits, or the first entry that cannot be read. */
export function parseParticipants(s: string): { credits: Credit[] } | { bad: string } {
  const credits: Credit[] = [];
  for (const entry of s.split(/[;|\n]/)) {
    const e = entry.trim();
    if (e === '') continue;
    const colon = e.indexOf(':');
    if (colon <= 0 || e.slice(colon + 1).trim() === '') return { bad: `"${e}" is not role:Name` };
    const credit = creditOf(e.slice(0, colon), e.slice(colon + 1).trim());
    if (!credit) return { bad: `"${e.slice(0, colon).trim()}" is not a role (${KNOWN_ROLES})` };
    credits.push(credit);
  }
  return { credits };
}

export const KNOWN_ROLES =
  'primary, featuring, with, remixer, composer, lyricist, producer, arranger, performer, mixer, mastering engineer, conductor, publisher';
