// GET /lookup/*: the reference lists. Read-only and the same for every user.
import type { HandlerMap } from '../handler.js';
import { GENRES, countryList, languageList, platformsLookup } from '../lookups/index.js';

export const handlers: HandlerMap = {
  getCountries: () => countryList(),
  getLanguages: () => languageList(),
  getGenres: () => [...GENRES],
  getPlatforms: () => platformsLookup(),
};
