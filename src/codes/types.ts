/** One reason a code is wrong (severity 'error') or worth a second look ('warning'). */
export interface Problem {
  /** Stable machine-readable code, e.g. 'bad_check_digit'. */
  code: ProblemCode;
  /** One sentence for a person. */
  message: string;
  severity: 'error' | 'warning';
  /** 1-based character position in the input as given (Unicode code points), when one character is at fault. */
  position?: number;
  /** What should have been there: the check digit, or 'letter' / 'digit' / 'letter or digit'. */
  expected?: string;
}

export type ProblemCode =
  | 'empty'
  | 'bad_length'
  | 'ean8_not_release_code'
  | 'gtin14_indicator'
  | 'bad_character'
  | 'non_ascii_digit'
  | 'unicode_dash'
  | 'non_ascii_space'
  | 'lookalike_letter'
  | 'non_ascii_character'
  | 'bad_check_digit'
  | 'bad_format'
  | 'all_zeros'
  | 'unknown_prefix'
  | 'future_year'
  | 'not_release_prefix'
  | 'duplicate'
  | 'scientific_notation'
  | 'quoted'
  | 'decimal_suffix'
  | 'thousands_separator'
  | 'lost_leading_zero'
  | 'text_formula';

export type UpcKind = 'upc-a' | 'ean-13' | 'gtin-14';

export interface UpcResult {
  valid: boolean;
  /** The digits only (spaces and hyphens removed), as given otherwise: leading zeros kept. null when invalid. */
  normalized: string | null;
  kind: UpcKind | null;
  /** The code padded to 14 digits: the form to compare and index by. null when invalid. */
  gtin14: string | null;
  problems: readonly Problem[];
}

export interface IsrcParts {
  /** ISO 3166 country code or agency prefix. */
  country: string;
  registrant: string;
  /** Two digits, as written. */
  year: string;
  /** The two-digit year read as a full year (see docs/codes.md for the window). */
  fullYear: number;
  designation: string;
}

export type IsrcPrefixKind = 'country' | 'agency' | 'unknown';

export interface IsrcResult {
  valid: boolean;
  /** Compact form to store: 12 characters, uppercase. null when invalid. */
  normalized: string | null;
  kind: 'isrc' | null;
  /** CC-XXX-YY-NNNNN. null when invalid. */
  display: string | null;
  parts: IsrcParts | null;
  prefixKind: IsrcPrefixKind | null;
  problems: readonly Problem[];
}

export interface IsrcOptions {
  /** The year "now" for the future-year warning; pass it in so results do not depend on the clock. */
  currentYear: number;
}

/** Shared so that the common case (no problem) allocates nothing. */
export const NO_PROBLEMS: readonly Problem[] = Object.freeze([]) as readonly Problem[];
