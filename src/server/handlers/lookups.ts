// GET /lookup/*: the reference lists. Read-only and the same for every user.
import type { HandlerMap } from '../handler.js';
import { GENRES, countryList, languageList, platformsLookup } from '../lookups/index.js';

/** Each list by its endpoint; also what the fast lane (http/fast-lane.ts) serialises. */
export const lookupLists = {
  getCountries: () => countryList(),
  getLanguages: () => languageList(),
  getGenres: () => [...GENRES],
  getPlatforms: () => platformsLookup(),
} satisfies HandlerMap;

export const handlers: HandlerMap = lookupLists;
