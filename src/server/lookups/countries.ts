// Countries for delivery territories: ISO 3166-1 alpha-2 codes with English names, from
// i18n-iso-countries. Only the English locale is loaded (the package's default entry loads ~80).
import countries from 'i18n-iso-countries/index.js';
import en from 'i18n-iso-countries/langs/en.json' with { type: 'json' };
import type { CountryResource } from '../../contract/resources.js';

/**
 * The library's first English name is the formal one ("United States of America",
 * "Taiwan, Province of China"). Territory pickers of stores show the short names people search
 * for; these codes use the library's own alternative name instead (see docs/lookups.md).
 */
const SHORT_NAME: Readonly<Record<string, string>> = {
  CN: 'China',
  CZ: 'Czechia',
  IR: 'Iran',
  MK: 'North Macedonia',
  PS: 'Palestine',
  RU: 'Russia',
  TW: 'Taiwan',
  TZ: 'Tanzania',
  US: 'United States',
  GB: 'United Kingdom',
  CI: "Côte d'Ivoire",
  GM: 'Gambia',
  KR: 'South Korea',
  NL: 'Netherlands',
};

let cached: CountryResource[] | undefined;

export function countryList(): CountryResource[] {
  if (cached) return cached;
  countries.registerLocale(en);
  const names = countries.getNames('en', { select: 'all' }) as unknown as Record<string, string[]>;
  cached = Object.entries(names)
    .map(([code, all]) => {
      const name = SHORT_NAME[code];
      // Overrides are only ever one of the library's own names, so a library update cannot make
      // us invent a name; a vanished alias falls back to the formal name.
      return { code, name: name !== undefined && all.includes(name) ? name : all[0]! };
    })
    .sort((a, b) => a.name.localeCompare(b.name, 'en'));
  return cached;
}

let codes: Set<string> | undefined;
export function isCountryCode(code: string): boolean {
  codes ??= new Set(countryList().map((c) => c.code));
  return codes.has(code);
}
