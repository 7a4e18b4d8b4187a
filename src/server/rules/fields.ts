// Checks of single fields against the reference lists, made when a value is saved, so a wrong
// genre or country is reported with its path at once rather than at submit.
import { canonicalGenre, isCountryCode, isLanguageCode, isStoreId } from '../lookups/index.js';
import type { Database } from 'better-sqlite3';
import { validationFailed } from '../handler.js';
import { labelArtistExists } from '../store/preferences.js';

export class FieldErrors {
  private readonly fields = new Map<string, string[]>();

  add(path: string, message: string): void {
    const list = this.fields.get(path) ?? [];
    this.fields.set(path, [...list, message]);
  }

  /** Throws a 422 validation_failed listing every field added so far. */
  throwIfAny(): void {
    if (this.fields.size > 0) throw validationFailed(Object.fromEntries(this.fields));
  }
}

export function checkGenre(errors: FieldErrors, path: string, value: string | null | undefined): string | null | undefined {
  if (value === null || value === undefined) return value;
  const canonical = canonicalGenre(value);
  if (canonical === undefined) errors.add(path, `unknown genre "${value}"; see GET /lookup/genres`);
  return canonical ?? value;
}

export function checkLanguage(errors: FieldErrors, path: string, value: string | null | undefined, allowInstrumental = false): void {
  if (value === null || value === undefined) return;
  if (allowInstrumental && value === 'instrumental') return;
  if (!isLanguageCode(value)) errors.add(path, `unknown language code "${value}"; see GET /lookup/languages`);
}

export function checkCountries(errors: FieldErrors, path: string, codes: readonly string[]): void {
  codes.forEach((c, i) => {
    if (!isCountryCode(c)) errors.add(`${path}.${i}`, `unknown country code "${c}"; see GET /lookup/countries`);
  });
}

export function checkStores(errors: FieldErrors, path: string, ids: readonly string[]): void {
  ids.forEach((id, i) => {
    if (!isStoreId(id)) errors.add(`${path}.${i}`, `unknown platform "${id}"; see GET /lookup/platforms`);
    else if (ids.indexOf(id) < i) errors.add(`${path}.${i}`, `"${id}" is given more than once`);
  });
}

/** An artist credit may point at one of the caller's label-managed artists, and only at one. */
export function checkArtistIds(
  errors: FieldErrors,
  db: Database,
  userId: number,
  path: string,
  artists: readonly { artist_id?: string | number | undefined }[] | undefined,
): void {
  artists?.forEach((a, i) => {
    if (a.artist_id === undefined) return;
    const id = /^[1-9][0-9]{0,15}$/.test(String(a.artist_id)) ? Number(a.artist_id) : NaN;
    if (!Number.isSafeInteger(id) || !labelArtistExists(db, userId, id)) {
      errors.add(`${path}.${i}.artist_id`, `you manage no artist ${a.artist_id}; see GET /preferences/label`);
    }
  });
}
