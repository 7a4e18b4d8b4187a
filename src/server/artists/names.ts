// Word lists the seeded directory builds artist names from. Invented combinations; any likeness
// to a real act is coincidence. Mixed scripts and accents on purpose: search must fold them.

export const FIRST_NAMES = [
  'Lena', 'Mira', 'Jonas', 'Zoë', 'Søren', 'Ana', 'José', 'Björn', 'Maëlle', 'Łukasz', 'Ngozi',
  'Hiroshi', 'Ayşe', 'Jürgen', 'Chloé', 'Dáithí', 'Siobhán', 'Ólafur', 'Noémie', 'François',
  'Amara', 'Kwame', 'Priya', 'Arjun', 'Mei', 'Joon', 'Elif', 'Mateo', 'Lucía', 'Sofía', 'Théo',
  'Ingrid', 'Astrid', 'Nils', 'Kalani', 'Tomás', 'Inês', 'Rafael', 'Yara', 'Omar', 'Leila',
  'Camille', 'Oskar', 'Milena', 'Dmitri', 'Anouk', 'Ruby', 'Callum', 'Isla', 'Finn', 'Nora',
  'Eli', 'Hana', 'Kenji', 'Aiyana', 'Wren', 'Jude', 'Marisol', 'Ezra', 'Tove', 'Renée',
] as const;

export const LAST_NAMES = [
  'Voss', 'Müller', 'Sørensen', 'García', 'Nakamura', 'Okafor', 'Lindqvist', 'Kowalczyk',
  'Ó Briain', 'Jónsdóttir', 'Dubois', 'Çelik', 'Rossi', 'Novák', 'Petrović', 'Mensah', 'Sharma',
  'Chen', 'Park', 'Yılmaz', 'Fernández', 'Moreau', 'Berg', 'Kahale', 'Castillo', 'Brandt',
  'Haddad', 'Lefèvre', 'Andersson', 'Ivanova', 'de Vries', 'Walsh', 'MacLeod', 'Keane', 'Holm',
  'Sato', 'Adeyemi', 'Mbeki', 'Costa', 'Reyes', 'Blackwood', 'Whitfield', 'Ashby', 'Quinn',
] as const;

export const ADJECTIVES = [
  'Velvet', 'Paper', 'Glass', 'Electric', 'Silver', 'Midnight', 'Golden', 'Hollow', 'Wild',
  'Neon', 'Quiet', 'Northern', 'Crimson', 'Lunar', 'Broken', 'Restless', 'Static', 'Amber',
  'Distant', 'Sunken', 'Frozen', 'Burning', 'Little', 'Wandering', 'Lost', 'Secret', 'Pale',
] as const;

export const PLURAL_NOUNS = [
  'Foxes', 'Lanterns', 'Harbors', 'Tides', 'Pilots', 'Ghosts', 'Orchards', 'Rivers', 'Sparrows',
  'Machines', 'Satellites', 'Wolves', 'Echoes', 'Strangers', 'Mountains', 'Saints', 'Comets',
  'Daughters', 'Horses', 'Gardens', 'Kings', 'Cathedrals', 'Engines', 'Lights', 'Waves',
] as const;

export const SINGULAR_NOUNS = [
  'Harbor', 'Lantern', 'Tide', 'Orchard', 'River', 'Parade', 'Signal', 'Garden', 'Engine',
  'Satellite', 'Avenue', 'Frontier', 'Bloom', 'Atlas', 'Echo', 'Hymn', 'Mirage', 'Harvest',
] as const;

export const MONONYMS = [
  'Luna', 'Vesna', 'Kaiyo', 'Sølvi', 'Yūna', 'Ezri', 'Lumo', 'Nalu', 'Ondine', 'Saoirse', 'Zarah',
  'Ilse', 'Koa', 'Maru', 'Rhiannon', 'Teo', 'Åse', 'Nilüfer', 'Oré', 'Sable', 'Juno', 'Ísold',
  'NOVÆ', 'mothwing', 'KÍMA', 'Aurelio',
] as const;

export const CITIES = [
  'Bergen', 'Lisbon', 'Kraków', 'Osaka', 'Lagos', 'Montréal', 'Reykjavík', 'Valparaíso', 'Tbilisi',
  'Göteborg', 'Marseille', 'Dublin', 'Zürich', 'Accra', 'Busan',
] as const;

export const ENSEMBLES = ['String Quartet', 'Chamber Choir', 'Brass Band', 'Jazz Collective', 'Sound System'] as const;

/** Names in non-Latin scripts, written whole (they do not combine like the lists above). */
export const OTHER_SCRIPT_NAMES = ['小林ゆい', '김하늘', 'Анна Соколова', 'Νίκος Παππάς', 'ملاك', 'สายฝน'] as const;
