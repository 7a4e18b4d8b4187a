// The genre list. Stores each keep their own taxonomy; distributors map one primary list onto
// them. This list is the common core of the primary genres that distributor upload forms offer
// (the store-side parent genres, without store-specific splits such as "J-Pop" or "Fitness"),
// in alphabetical order. Release `genre` and `subgenre` both take values from it. Sources and
// the reasoning are in docs/lookups.md.
export const GENRES: readonly string[] = [
  'Alternative',
  'Ambient',
  'Blues',
  "Children's Music",
  'Christian & Gospel',
  'Classical',
  'Comedy',
  'Country',
  'Dance',
  'Easy Listening',
  'Electronic',
  'Experimental',
  'Folk',
  'Hip-Hop/Rap',
  'Holiday',
  'Indie',
  'Jazz',
  'K-Pop',
  'Latin',
  'Lo-Fi',
  'Metal',
  'New Age',
  'Pop',
  'Punk',
  'R&B/Soul',
  'Reggae',
  'Rock',
  'Singer/Songwriter',
  'Soundtrack',
  'Spoken Word',
  'World',
];

const byFolded = new Map(GENRES.map((g) => [g.toLowerCase(), g]));

/** The list's own spelling of `value`, matched case-insensitively; undefined when not a genre. */
export function canonicalGenre(value: string): string | undefined {
  return byFolded.get(value.trim().toLowerCase());
}
