// Languages of metadata and audio: ISO 639-1 two-letter codes with English and native names,
// from iso-639-1.
import ISO6391 from 'iso-639-1';
import type { LanguageResource } from '../../contract/resources.js';

let cached: LanguageResource[] | undefined;

export function languageList(): LanguageResource[] {
  cached ??= ISO6391.getLanguages(ISO6391.getAllCodes())
    .map((l) => ({ code: l.code, name: l.name, native_name: l.nativeName }))
    .sort((a, b) => a.name.localeCompare(b.name, 'en'));
  return cached;
}

export function isLanguageCode(code: string): boolean {
  return ISO6391.validate(code);
}
