// A deterministic, offline artist directory: the same seed always yields the same profiles with
// the same ids, so the sandbox, its seed data and the tests agree without a network.
import { boundedLimit, type ArtistDirectory, type ArtistPlatformResult } from './directory.js';
import * as N from './names.js';
import { ARTIST_PLATFORMS, PLATFORM_INFO, type ArtistPlatform } from './platforms.js';
import { foldName, rankMatches } from './search.js';

export const DEFAULT_DIRECTORY_SEED = 'reldist-directory-v1';

/**
 * Artists that always exist, on every platform listed, whatever else the seed generates: the
 * sandbox seeds label preferences from them and the docs and tests can name them. "Luna" is two
 * different artists on purpose: a name alone does not identify a profile.
 */
export const ANCHOR_ARTISTS: readonly { name: string; platforms: readonly ArtistPlatform[] }[] = [
  { name: 'Lena Voss', platforms: ARTIST_PLATFORMS },
  { name: 'The Paper Lanterns', platforms: ARTIST_PLATFORMS },
  { name: 'Åsa Lindqvist', platforms: ARTIST_PLATFORMS },
  { name: 'Kaito Nakamura', platforms: ['streaming_a', 'store_c'] },
  { name: 'Glass Harbor', platforms: ARTIST_PLATFORMS },
  { name: 'Mira Okafor', platforms: ARTIST_PLATFORMS },
  { name: 'Zoë Brandt', platforms: ['streaming_a', 'video_b'] },
  { name: 'Luna', platforms: ARTIST_PLATFORMS },
  { name: 'Luna', platforms: ['streaming_a'] },
  { name: 'Sigurrós Jónsdóttir', platforms: ARTIST_PLATFORMS },
];

interface Profile extends ArtistPlatformResult {
  folded: string;
  followers: number;
}

/** sfc32 seeded from a string: small, fast, and identical on every platform. */
export function seededRandom(seed: string): () => number {
  let h = 1779033703 ^ seed.length;
  const next32 = () => {
    h = Math.imul(h ^ (h >>> 16), 2246822507);
    h = Math.imul(h ^ (h >>> 13), 3266489909);
    return (h ^= h >>> 16) >>> 0;
  };
  for (let i = 0; i < seed.length; i++) {
    h = Math.imul(h ^ seed.charCodeAt(i), 3432918353);
    h = (h << 13) | (h >>> 19);
  }
  let a = next32(),
    b = next32(),
    c = next32(),
    d = next32();
  return () => {
    a >>>= 0;
    b >>>= 0;
    c >>>= 0;
    d >>>= 0;
    let t = (a + b) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    d = (d + 1) | 0;
    t = (t + d) | 0;
    c = (c + t) | 0;
    return (t >>> 0) / 4294967296;
  };
}

type Rng = () => number;
const pick = <T>(rng: Rng, list: readonly T[]): T => list[Math.floor(rng() * list.length)] as T;
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const CHANNEL_CHARS = `${BASE62}-_`;
const HEX = '0123456789abcdef';
const randomString = (rng: Rng, alphabet: string, length: number) => Array.from({ length }, () => alphabet[Math.floor(rng() * alphabet.length)]).join('');

function generateName(rng: Rng): string {
  const r = rng();
  if (r < 0.42) return `${pick(rng, N.FIRST_NAMES)} ${pick(rng, N.LAST_NAMES)}`;
  if (r < 0.56) return `The ${pick(rng, N.ADJECTIVES)} ${pick(rng, N.PLURAL_NOUNS)}`;
  if (r < 0.68) return `${pick(rng, N.ADJECTIVES)} ${pick(rng, N.SINGULAR_NOUNS)}`;
  if (r < 0.78) return pick(rng, N.MONONYMS);
  if (r < 0.84) return `${pick(rng, N.FIRST_NAMES)} & the ${pick(rng, N.PLURAL_NOUNS)}`;
  if (r < 0.9) return `DJ ${pick(rng, N.MONONYMS)}`;
  if (r < 0.95) return `${pick(rng, N.CITIES)} ${pick(rng, N.ENSEMBLES)}`;
  return pick(rng, N.OTHER_SCRIPT_NAMES);
}

/** Followers spread like real catalogs: most profiles small, a few large. */
const followerCount = (rng: Rng) => Math.floor(Math.exp(rng() * rng() * 15.5));

function slugOf(name: string): string {
  const slug = foldName(name).replaceAll(' ', '-');
  return slug === '' ? 'artist' : slug;
}

function handleBase(name: string): string {
  const h = foldName(name).replace(/[^a-z0-9]/g, '');
  return h.length >= 3 ? h.slice(0, 24) : `channel${h}`;
}

interface Identity {
  name: string;
  platforms: readonly ArtistPlatform[];
}

/** The artists of the directory, before any platform gives them ids. */
function identities(seed: string, generated: number): Identity[] {
  const rng = seededRandom(`${seed}:identities`);
  const out: Identity[] = [...ANCHOR_ARTISTS];
  for (let i = 0; i < generated; i++) {
    const r = rng();
    // About half exist everywhere; the rest on one or two platforms, as with real artists.
    const platforms = r < 0.5 ? ARTIST_PLATFORMS : ARTIST_PLATFORMS.filter(() => rng() < 0.55);
    out.push({ name: generateName(rng), platforms: platforms.length > 0 ? platforms : [pick(rng, ARTIST_PLATFORMS)] });
  }
  return out;
}

function buildPlatform(seed: string, platform: ArtistPlatform, people: readonly Identity[]): Profile[] {
  const rng = seededRandom(`${seed}:${platform}`);
  const info = PLATFORM_INFO[platform];
  const ids = new Set<string>();
  const handles = new Set<string>();
  const profiles: Profile[] = [];
  for (const person of people) {
    // Draw for every identity so adding a platform to one artist does not shift the others' ids.
    const followers = followerCount(rng);
    const hasImage = rng() < 0.9;
    const imageKey = randomString(rng, HEX, 32);
    let id: string;
    do {
      id =
        platform === 'streaming_a'
          ? randomString(rng, BASE62, 22)
          : platform === 'video_b'
            ? `UC${randomString(rng, CHANNEL_CHARS, 22)}`
            : String(100_000_000 + Math.floor(rng() * 1_900_000_000));
    } while (ids.has(id));
    if (!person.platforms.includes(platform)) continue;
    ids.add(id);
    const profile: Profile = {
      platform,
      id,
      name: person.name,
      url: '',
      image_url: null,
      followers,
      // Video service B only: the channel's handle, with its `@`.
      handle: null,
      folded: foldName(person.name),
    };
    if (platform === 'streaming_a') {
      profile.url = `https://${info.webHost}/artist/${id}`;
      if (hasImage) profile.image_url = `https://${info.imageHost}/image/${imageKey}`;
    } else if (platform === 'video_b') {
      const base = handleBase(person.name);
      const suffixes = ['', 'music', 'official', 'tv'];
      let handle = suffixes.map((s) => base + s).find((h) => !handles.has(h));
      for (let n = 2; handle === undefined; n++) if (!handles.has(`${base}${n}`)) handle = `${base}${n}`;
      handles.add(handle);
      profile.handle = `@${handle}`;
      profile.url = `https://${info.webHost}/channel/${id}`;
      if (hasImage) profile.image_url = `https://${info.imageHost}/ch/${imageKey}=s800-c-k`;
    } else {
      profile.url = `https://${info.webHost}/us/artist/${slugOf(person.name)}/${id}`;
      if (hasImage) profile.image_url = `https://${info.imageHost}/image/thumb/${imageKey}/600x600bb.jpg`;
    }
    profiles.push(profile);
  }
  return profiles;
}

function toResult(p: Profile): ArtistPlatformResult {
  return { platform: p.platform, id: p.id, name: p.name, url: p.url, image_url: p.image_url, followers: p.followers, handle: p.handle };
}

export interface SeededDirectoryOptions {
  seed?: string;
  /** Generated artists on top of the anchors (each lands on one to three platforms). */
  generated?: number;
}

export class SeededArtistDirectory implements ArtistDirectory {
  readonly seed: string;
  private readonly byPlatform: Record<ArtistPlatform, Profile[]>;
  private readonly byId: Record<ArtistPlatform, Map<string, Profile>>;
  private readonly byHandle = new Map<string, Profile>();

  constructor(options: SeededDirectoryOptions = {}) {
    this.seed = options.seed ?? DEFAULT_DIRECTORY_SEED;
    const people = identities(this.seed, options.generated ?? 400);
    const build = (p: ArtistPlatform) => buildPlatform(this.seed, p, people);
    this.byPlatform = { streaming_a: build('streaming_a'), video_b: build('video_b'), store_c: build('store_c') };
    const index = (p: ArtistPlatform) => new Map(this.byPlatform[p].map((x) => [x.id, x]));
    this.byId = { streaming_a: index('streaming_a'), video_b: index('video_b'), store_c: index('store_c') };
    for (const p of this.byPlatform.video_b) this.byHandle.set(p.handle!.slice(1).toLowerCase(), p);
  }

  /** Every profile of a platform, in generation order (for seeding and tests). */
  all(platform: ArtistPlatform): ArtistPlatformResult[] {
    return this.byPlatform[platform].map(toResult);
  }

  /** Profiles whose name is exactly `name` (after folding), most followers first. */
  findByName(platform: ArtistPlatform, name: string): ArtistPlatformResult[] {
    const folded = foldName(name);
    return this.byPlatform[platform]
      .filter((p) => p.folded === folded)
      .sort((a, b) => b.followers - a.followers)
      .map(toResult);
  }

  /** The `@handle` of a video service B channel. */
  handleOf(id: string): string | undefined {
    return this.byId.video_b.get(id)?.handle ?? undefined;
  }

  async search(platform: ArtistPlatform, name: string, limit: number): Promise<ArtistPlatformResult[]> {
    return rankMatches(this.byPlatform[platform], name, boundedLimit(limit)).map(toResult);
  }

  async get(platform: ArtistPlatform, id: string): Promise<ArtistPlatformResult | undefined> {
    const p = this.byId[platform].get(id);
    return p && toResult(p);
  }

  async getByHandle(platform: ArtistPlatform, handle: string): Promise<ArtistPlatformResult | undefined> {
    if (platform !== 'video_b') return undefined;
    const p = this.byHandle.get(handle.replace(/^@/, '').toLowerCase());
    return p && toResult(p);
  }
}
