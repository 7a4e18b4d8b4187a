// What a spreadsheet's columns can mean to a release file, and how a header is read: as a person
// reads it (case, spacing and punctuation ignored, ℗ and © as P and C), through synonyms. Data
// only: the templates (templates.ts) are tables over the same fields.

/** Everything an import reads from a row. Release fields repeat on each of its rows; track fields are the row's own. */
export const FIELDS = [
  'release_title',
  'release_version',
  'release_artists',
  'release_type',
  'label',
  'upc',
  'catalog_number',
  'release_date',
  'preorder_date',
  'original_release_date',
  'genre',
  'subgenre',
  'language',
  'production_year',
  'p_line',
  'p_year',
  'c_line',
  'c_year',
  'price_tier',
  'disc',
  'track_number',
  'track_title',
  'track_version',
  'track_artists',
  'featuring',
  'isrc',
  'participants',
  'composer',
  'lyricist',
  'producer',
  'publisher',
  'explicit',
  'audio_language',
  'audio',
  'preview_start',
] as const;
export type Field = (typeof FIELDS)[number];

/** What each field is called where a person reads it (messages, the summary). */
export const FIELD_WORDS: Record<Field, string> = {
  release_title: 'release title',
  release_version: 'release version',
  release_artists: 'release artists',
  release_type: 'release type',
  label: 'label',
  upc: 'UPC',
  catalog_number: 'catalog number',
  release_date: 'release date',
  preorder_date: 'pre-order date',
  original_release_date: 'original release date',
  genre: 'genre',
  subgenre: 'subgenre',
  language: 'language',
  production_year: 'production year',
  p_line: 'P line',
  p_year: 'P line year',
  c_line: 'C line',
  c_year: 'C line year',
  price_tier: 'price tier',
  disc: 'disc',
  track_number: 'track number',
  track_title: 'track title',
  track_version: 'track version',
  track_artists: 'track artists',
  featuring: 'featuring artists',
  isrc: 'ISRC',
  participants: 'participants',
  composer: 'composer',
  lyricist: 'lyricist',
  producer: 'producer',
  publisher: 'publisher',
  explicit: 'explicit',
  audio_language: 'audio language',
  audio: 'audio file',
  preview_start: 'preview start',
};

/** The headers of the generic one-row-per-track shape and their common synonyms, as a person writes them. */
export const GENERIC_HEADERS: Record<Field, readonly string[]> = {
  release_title: ['Release title', 'Album title', 'Album', 'Release', 'Title of release', 'Product title'],
  release_version: ['Release version', 'Album version', 'Release subtitle'],
  release_artists: ['Release artists', 'Release artist', 'Album artist', 'Album artists', 'Main artist', 'Primary artist', 'Artist', 'Artists'],
  release_type: ['Release type', 'Album type', 'Product type', 'Format', 'Configuration'],
  label: ['Label', 'Label name', 'Record label'],
  upc: ['UPC', 'EAN', 'Barcode', 'UPC/EAN', 'EAN/UPC', 'GTIN', 'UPC code', 'EAN code', 'Release UPC'],
  catalog_number: [
    'Catalog number',
    'Catalogue number',
    'Catalog no',
    'Catalogue no',
    'Catalog #',
    'Cat no',
    'Cat #',
    'Catalog',
    'Catalogue',
    'Label catalog number',
  ],
  release_date: ['Release date', 'Digital release date', 'Street date', 'Sales start date', 'Sale start date'],
  preorder_date: ['Pre-order date', 'Preorder date', 'Pre-order start date'],
  original_release_date: ['Original release date', 'Original date', 'Physical release date'],
  genre: ['Genre', 'Main genre', 'Primary genre', 'Genre 1'],
  subgenre: ['Subgenre', 'Sub-genre', 'Secondary genre', 'Genre 2'],
  language: ['Language', 'Metadata language', 'Title language', 'Release language'],
  production_year: ['Production year', 'Year of production', 'Recording year'],
  p_line: ['P line', '℗ line', 'Phonographic copyright', 'P copyright', '(P) line', 'P-line owner', 'P line owner', 'Phonographic rights holder'],
  p_year: ['P line year', 'P year', '℗ year'],
  c_line: ['C line', '© line', 'Copyright', 'C copyright', '(C) line', 'C-line owner', 'C line owner', 'Copyright holder'],
  c_year: ['C line year', 'C year', '© year'],
  price_tier: ['Price tier', 'Price', 'Price band', 'Price code', 'Pricing'],
  disc: ['Disc', 'Disc number', 'Disc no', 'Volume', 'Volume number', 'Volume no', 'CD number', 'Disc #', 'Volume #'],
  track_number: ['Track number', 'Track no', 'Track #', 'Track', 'Track position', 'Position', 'Sequence', 'Track sequence', 'No', '#'],
  track_title: ['Track title', 'Song title', 'Track name', 'Song name', 'Title', 'Recording title'],
  track_version: ['Track version', 'Song version', 'Mix version', 'Track mix version', 'Version'],
  track_artists: ['Track artists', 'Track artist', 'Track main artist', 'Song artist', 'Track primary artist'],
  featuring: ['Featuring', 'Featuring artist', 'Featuring artists', 'Feat', 'Track featuring artist'],
  isrc: ['ISRC', 'ISRC code', 'Track ISRC'],
  participants: ['Participants', 'Contributors', 'Credits', 'Track participants', 'Track contributors'],
  composer: ['Composer', 'Composers', 'Songwriter', 'Writer', 'Writers', 'Author'],
  lyricist: ['Lyricist', 'Lyricists', 'Lyrics by'],
  producer: ['Producer', 'Producers'],
  publisher: ['Publisher', 'Publishers', 'Music publisher'],
  explicit: ['Explicit', 'Explicit content', 'Explicit lyrics', 'Parental advisory', 'Parental advisory label'],
  audio_language: ['Audio language', 'Lyrics language', 'Track language', 'Language of performance', 'Sung language'],
  audio: ['Audio file', 'Audio', 'File name', 'Filename', 'Audio file name', 'Audio filename', 'Audio URL', 'File', 'WAV file', 'Track file', 'Audio link'],
  preview_start: ['Preview start', 'Preview start time', 'Preview start seconds', 'Clip start', 'Sample start'],
};

/**
 * A header as a person reads it: lowercase, ℗/© as p/c, # as "no", accents folded, and nothing
 * but letters and digits kept ("Track no.", "TRACK_NO", "track  #" all read "trackno").
 */
export function headerKey(header: string): string {
  return header
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/℗|\(p\)/g, 'p')
    .replace(/©|\(c\)/g, 'c')
    .replace(/#|n°|nº|№/g, 'no')
    .replace(/number|num\b|nr\b/g, 'no')
    .replace(/catalogue/g, 'catalog')
    .replace(/[^a-z0-9]/g, '');
}
