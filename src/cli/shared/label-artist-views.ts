// How the artists a label manages are shown, with their platform choices (an existing profile,
// or "create a new one").
import type { LabelArtistResource, PlatformChoice, PreferenceArtistItem } from '../../contract/index.js';
import type { Column, Field } from '../output/index.js';

export function choiceText(c: PlatformChoice | undefined): string {
  if (!c) return 'not set';
  return c.mode === 'new' ? 'create a new profile' : c.profile ? `${c.profile.name} (${c.profile.id})` : 'existing profile';
}

export function choicesText(list: readonly PlatformChoice[]): string {
  return list.map((c) => `${c.platform}: ${choiceText(c)}`).join('; ');
}

export const labelArtistColumns: Column<LabelArtistResource>[] = [
  { header: 'ID', value: 'id', kind: 'id' },
  { header: 'NAME', value: 'name', cut: true },
  // On a narrow terminal the count goes first, then the platforms (`label artists get` shows both);
  // never cut: they name the profiles' ids.
  { header: 'RELEASES', value: 'release_count', kind: 'number', drop: 2 },
  { header: 'PLATFORMS', value: (a) => choicesText(a.platforms), drop: 1 },
];

export const preferenceArtistColumns: Column<PreferenceArtistItem>[] = [
  { header: 'ID', value: 'id', kind: 'id' },
  { header: 'NAME', value: 'name', cut: true },
  // On a narrow terminal where the artist comes from goes first, then the count, then the platforms (never cut: they name ids).
  { header: 'RELEASES', value: 'release_count', kind: 'number', drop: 2 },
  { header: 'SOURCE', value: 'source', drop: 3 },
  { header: 'PLATFORMS', value: (a) => choicesText(a.platforms), drop: 1 },
];

export const labelArtistFields: Field<LabelArtistResource>[] = [
  { header: 'ID', value: 'id', kind: 'id' },
  { header: 'Name', value: 'name' },
  { header: 'Releases', value: 'release_count', kind: 'number' },
  { header: 'Platforms', value: (a) => choicesText(a.platforms) },
  { header: 'Created', value: 'created_at', kind: 'date' },
  { header: 'Updated', value: 'updated_at', kind: 'date' },
];
