// The four reference lists, and membership checks other parts of the service validate with.
export { countryList, isCountryCode } from './countries.js';
export { languageList, isLanguageCode } from './languages.js';
export { GENRES, canonicalGenre } from './genres.js';
export { STORES, platformsLookup, isStoreId } from './platforms.js';
