import { describe, expect, it } from 'vitest';
import { CountryResource, LanguageResource, LookupPlatformsData } from '../../src/contract/resources.js';
import {
  GENRES,
  STORES,
  canonicalGenre,
  countryList,
  isCountryCode,
  isLanguageCode,
  isStoreId,
  languageList,
  platformsLookup,
} from '../../src/server/lookups/index.js';

describe('countries', () => {
  const list = countryList();
  it('holds every ISO 3166-1 alpha-2 code once, with English names, sorted by name', () => {
    expect(list.length).toBeGreaterThanOrEqual(249);
    for (const c of list) expect(CountryResource.parse(c)).toEqual(c);
    expect(new Set(list.map((c) => c.code)).size).toBe(list.length);
    const names = list.map((c) => c.name);
    expect([...names].sort((a, b) => a.localeCompare(b, 'en'))).toEqual(names);
  });
  it('uses the short names people search for', () => {
    const byCode = Object.fromEntries(list.map((c) => [c.code, c.name]));
    expect(byCode).toMatchObject({
      DE: 'Germany',
      US: 'United States',
      GB: 'United Kingdom',
      TW: 'Taiwan',
      KR: 'South Korea',
      CI: "Côte d'Ivoire",
      AX: 'Åland Islands',
    });
  });
  it('checks codes exactly', () => {
    expect(isCountryCode('DE')).toBe(true);
    expect(isCountryCode('de')).toBe(false);
    expect(isCountryCode('UK')).toBe(false);
    expect(isCountryCode('ZZ')).toBe(false);
  });
});

describe('languages', () => {
  const list = languageList();
  it('holds the ISO 639-1 codes with English and native names', () => {
    expect(list.length).toBeGreaterThanOrEqual(180);
    for (const l of list) {
      expect(LanguageResource.parse(l)).toEqual(l);
      expect(l.code).toMatch(/^[a-z]{2}$/);
      expect(l.native_name.length).toBeGreaterThan(0);
    }
    expect(list.find((l) => l.code === 'de')).toEqual({ code: 'de', name: 'German', native_name: 'Deutsch' });
    expect(list.find((l) => l.code === 'ja')?.native_name).toBe('日本語');
  });
  it('checks codes', () => {
    expect(isLanguageCode('en')).toBe(true);
    expect(isLanguageCode('xx')).toBe(false);
    expect(isLanguageCode('eng')).toBe(false);
  });
});

describe('genres', () => {
  it('is a list of about thirty unique names in alphabetical order', () => {
    expect(GENRES.length).toBeGreaterThanOrEqual(25);
    expect(GENRES.length).toBeLessThanOrEqual(40);
    expect(new Set(GENRES.map((g) => g.toLowerCase())).size).toBe(GENRES.length);
    expect([...GENRES].sort((a, b) => a.localeCompare(b, 'en'))).toEqual([...GENRES]);
  });
  it('matches a genre case-insensitively and answers with the list spelling', () => {
    expect(canonicalGenre('hip-hop/rap')).toBe('Hip-Hop/Rap');
    expect(canonicalGenre('  POP ')).toBe('Pop');
    expect(canonicalGenre('Polka Fusion')).toBeUndefined();
  });
});

describe('platforms', () => {
  it('lists stores with unique ids and the three artist platforms among them', () => {
    const data = platformsLookup();
    expect(LookupPlatformsData.parse(data)).toEqual(data);
    expect(new Set(STORES.map((s) => s.id)).size).toBe(STORES.length);
    expect(data.artist_platforms.map((p) => p.id)).toEqual(['streaming_a', 'video_b', 'store_c']);
    for (const p of data.artist_platforms) expect(isStoreId(p.id)).toBe(true);
    expect(isStoreId('all')).toBe(false);
  });
});
