// The catalog number as a key: a release's catalog number names it within an account, compared in
// this one form on both sides of the wire (the service's uniqueness check and `catalog_number`
// filter, the CLI's matching of release files to releases). Plain code, no zod: the CLI imports
// this file directly without loading the schemas.

/** The form two catalog numbers are compared in: " nlr-0001" and "NLR-0001" (and NFC/NFD spellings) are one. */
export function catalogNumberKey(catalogNumber: string): string {
  return catalogNumber.normalize('NFC').trim().toLowerCase();
}
