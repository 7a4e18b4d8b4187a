// The distributors' templates as column maps over the generic fields (columns.ts): each one's own
// headers, the order its dates are written in, and where it keeps contributors. Data, not code:
// a new template is one more entry. The column sets follow the distributors' published bulk
// templates (the shapes in docs/commands.md, "Import"); a template's headers win over the generic
// synonyms, which still read any column the template does not name.
import type { Field } from './columns.js';

export type DateOrder = 'mdy' | 'dmy' | 'auto';

/** A second sheet of contributors: one row per person, role and the track positions they are credited on. */
export interface ContributorSheet {
  /** The sheet's name as a person reads it (headerKey), any of these. */
  names: readonly string[];
  /** The release the row belongs to: its catalog number or UPC column. */
  release: readonly string[];
  positions: readonly string[];
  name: readonly string[];
  role: readonly string[];
}

export interface Template {
  id: 'generic' | 'believe' | 'sonosuite' | 'umw';
  /** For the summary: "Believe XLS template". */
  title: string;
  /** This template's own headers for each field it names. */
  headers: Partial<Record<Field, readonly string[]>>;
  /** MM/DD/YYYY, DD/MM/YYYY, or told by the values themselves (a day above 12), else refused as ambiguous. */
  dates: DateOrder;
  contributorSheet?: ContributorSheet;
}

export const GENERIC: Template = { id: 'generic', title: 'one row per track (generic)', headers: {}, dates: 'auto' };

export const BELIEVE: Template = {
  id: 'believe',
  title: 'Believe XLS template',
  dates: 'mdy',
  headers: {
    release_title: ['Release Title', 'Album Title'],
    release_version: ['Release Version'],
    release_artists: ['Release Artist(s)', 'Release Main Artist'],
    release_type: ['Release Format'],
    label: ['Label Name'],
    upc: ['UPC/EAN'],
    catalog_number: ['Catalog Number'],
    release_date: ['Digital Release Date (MM/DD/YYYY)', 'Digital Release Date'],
    original_release_date: ['Original Release Date (MM/DD/YYYY)'],
    genre: ['Main Genre'],
    subgenre: ['Sub Genre'],
    language: ['Metadata Language'],
    production_year: ['Production Year'],
    p_line: ['P-Line'],
    c_line: ['C-Line'],
    price_tier: ['Price Tier'],
    disc: ['Volume'],
    track_number: ['Track Number'],
    track_title: ['Track Title'],
    track_version: ['Track Version'],
    track_artists: ['Track Artist(s)', 'Track Main Artist'],
    featuring: ['Track Featuring Artist(s)'],
    isrc: ['ISRC'],
    explicit: ['Parental Advisory'],
    audio_language: ['Lyrics Language'],
    audio: ['Audio File Name'],
    preview_start: ['Preview Start (seconds)'],
  },
  contributorSheet: {
    names: ['contributors', 'contributor', 'credits', 'trackcontributors'],
    release: ['Catalog Number', 'UPC/EAN', 'UPC', 'Catalogue Number'],
    positions: ['Track Position(s)', 'Track Positions', 'Track Position', 'Track Number(s)', 'Track Number', 'Tracks'],
    name: ['Contributor Name', 'Contributor', 'Name'],
    role: ['Contributor Role', 'Role'],
  },
};

export const SONOSUITE: Template = {
  id: 'sonosuite',
  title: 'Sonosuite CSV template',
  dates: 'dmy',
  headers: {
    release_title: ['Release Name'],
    release_version: ['Release Version'],
    release_artists: ['Release Primary Artist(s)'],
    release_type: ['Release Type'],
    label: ['Label'],
    upc: ['Release UPC'],
    catalog_number: ['Release Catalog Number'],
    release_date: ['Digital Release Date (DD/MM/YYYY)'],
    original_release_date: ['Original Release Date (DD/MM/YYYY)'],
    genre: ['Primary Genre'],
    subgenre: ['Secondary Genre'],
    language: ['Release Language'],
    p_line: ['(P) Holder'],
    p_year: ['(P) Year'],
    c_line: ['(C) Holder'],
    c_year: ['(C) Year'],
    price_tier: ['Release Price Tier'],
    disc: ['Volume Number'],
    track_number: ['Track Sequence'],
    track_title: ['Track Name'],
    track_version: ['Track Mix Version'],
    track_artists: ['Track Primary Artist(s)'],
    featuring: ['Track Featured Artist(s)'],
    isrc: ['Track ISRC'],
    composer: ['Track Composer(s)'],
    lyricist: ['Track Lyricist(s)'],
    producer: ['Track Producer(s)'],
    publisher: ['Track Publisher(s)'],
    explicit: ['Track Explicit Content'],
    audio_language: ['Track Audio Language'],
    audio: ['Track Audio File'],
  },
};

export const UMW: Template = {
  id: 'umw',
  title: 'UMW participants template',
  dates: 'dmy',
  headers: {
    release_title: ['Product Title'],
    release_version: ['Product Version'],
    release_artists: ['Product Artist'],
    release_type: ['Product Configuration'],
    label: ['Label'],
    upc: ['UPC'],
    catalog_number: ['Product Code'],
    release_date: ['Release Date'],
    original_release_date: ['Original Release Date'],
    genre: ['Genre'],
    language: ['Language'],
    production_year: ['Production Year'],
    p_line: ['P Line'],
    c_line: ['C Line'],
    price_tier: ['Price Band'],
    disc: ['Volume Number'],
    track_number: ['Track Sequence'],
    track_title: ['Track Title'],
    track_version: ['Track Version'],
    isrc: ['ISRC'],
    participants: ['Participants'],
    explicit: ['Parental Advisory'],
    audio_language: ['Audio Language'],
    audio: ['Audio URL', 'Audio Filename'],
  },
};

export const TEMPLATES = { believe: BELIEVE, sonosuite: SONOSUITE, umw: UMW } as const;
export type TemplateName = keyof typeof TEMPLATES;
export const TEMPLATE_CHOICES = ['auto', 'generic', ...(Object.keys(TEMPLATES) as TemplateName[])] as const;
