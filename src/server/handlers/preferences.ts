// Artist and label preferences (spec 4.4). Artist preferences belong to artist accounts and label
// preferences to label accounts (the routes' `account`, enforced by the app before a handler runs:
// the other kind gets 403 `forbidden` naming the endpoints to use, since a 404 would read as
// "nothing saved yet"). A label artist of another label is 404, like every other user's row.
import type { PlatformChoiceInput } from '../../contract/requests.js';
import { artistIdOf } from '../../contract/wire-values.js';
import type { LabelPreferencesData } from '../../contract/resources.js';
import { paging } from '../../contract/routes.js';
import { ServiceError, type HandlerMap } from '../handler.js';
import { FieldErrors } from '../rules/fields.js';
import type { ArtistDirectory } from '../artists/directory.js';
import { PLATFORM_INFO } from '../artists/platforms.js';
import { canonicalGenre, isLanguageCode } from '../lookups/index.js';
import { parseId } from '../store/ids.js';
import {
  getArtistPreferences,
  getLabelArtist,
  getLabelSettings,
  labelArtistExists,
  listLabelArtists,
  preferenceArtists,
  removeLabelArtist,
  saveArtistPreferences,
  saveLabelPreferences,
  type LabelArtistChange,
  type LabelSettingsChange,
  type PlatformChoice,
} from '../store/preferences.js';
import { resolveChoice } from '../artists/resolve-http.js';
import type { z } from 'zod';

type ChoiceInput = z.infer<typeof PlatformChoiceInput>;

/**
 * Checks per-platform choices: one per platform; "existing" must name a profile the directory
 * has (a bare id or a pasted link, resolved like the link endpoints); "new" carries no id.
 */
async function resolveChoices(
  directory: ArtistDirectory,
  inputs: readonly ChoiceInput[] | undefined,
  path: string,
  errors: FieldErrors,
): Promise<PlatformChoice[]> {
  const out: PlatformChoice[] = [];
  const seen = new Set<string>();
  for (const [i, c] of (inputs ?? []).entries()) {
    if (seen.has(c.platform)) {
      errors.add(`${path}.${i}.platform`, `${c.platform} is given more than once`);
      continue;
    }
    seen.add(c.platform);
    if (c.mode === 'new') {
      if (c.profile_id !== undefined) errors.add(`${path}.${i}.profile_id`, 'must be absent with mode "new" (a new profile has no id yet)');
      else out.push({ platform: c.platform, mode: 'new', profile: null });
      continue;
    }
    const outcome = await resolveChoice(directory, c.profile_id!, c.platform);
    if (outcome.ok) out.push({ platform: c.platform, mode: 'existing', profile: outcome.result });
    else errors.add(`${path}.${i}.profile_id`, outcome.message);
  }
  return out;
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

export const handlers: HandlerMap = {
  getArtistPreferences({ user }, { db }) {
    return getArtistPreferences(db, user.id);
  },

  // The profile look-ups first, then the write and its answer in one transaction (commit).
  async submitArtistPreference({ user, body: req, commit }, { db, now, artists }) {
    const errors = new FieldErrors();
    const platforms = await resolveChoices(artists, req.platforms, 'platforms', errors);
    errors.throwIfAny();
    const chosen = platforms.map((c) => `${PLATFORM_INFO[c.platform].name}: ${c.mode === 'new' ? 'new profile' : c.profile!.name}`);
    return commit(() => {
      saveArtistPreferences(db, user.id, { artist_name: req.artist_name, platforms }, now());
      return { message: `Artist preferences saved${chosen.length > 0 ? ` (${chosen.join('; ')})` : ''}.` };
    });
  },

  listPreferenceArtists({ user }, { db }) {
    return preferenceArtists(db, user.id);
  },

  getLabelPreferences({ user, query }, { db }): LabelPreferencesData {
    const page = query.page ?? paging.defaultPage;
    // `limit` is the legacy name of perPage; perPage wins when both are sent.
    const perPage = query.perPage ?? query.limit ?? paging.defaultPerPage;
    const { artists, total } = listLabelArtists(db, user.id, { search: query.search, page, perPage });
    return {
      label: getLabelSettings(db, user.id),
      artists,
      meta: { page, per_page: perPage, total, total_pages: Math.ceil(total / perPage) },
    };
  },

  async submitLabelPreference({ user, body: req, commit }, { db, now, artists: directory }) {
    const errors = new FieldErrors();

    const settings: LabelSettingsChange = {};
    if (req.name !== undefined) settings.name = req.name;
    if (req.default_p_line_owner !== undefined) settings.default_p_line_owner = req.default_p_line_owner;
    if (req.default_c_line_owner !== undefined) settings.default_c_line_owner = req.default_c_line_owner;
    if (req.default_genre !== undefined) {
      const genre = req.default_genre === null ? null : canonicalGenre(req.default_genre);
      if (genre === undefined) errors.add('default_genre', `"${req.default_genre}" is not in the genres lookup (GET /lookup/genres)`);
      else settings.default_genre = genre;
    }
    if (req.default_language !== undefined) {
      const lang = req.default_language?.toLowerCase() ?? null;
      if (lang !== null && !isLanguageCode(lang)) {
        errors.add('default_language', `"${req.default_language}" is not an ISO 639-1 code from the languages lookup (GET /lookup/languages)`);
      } else settings.default_language = lang;
    }

    const artists: LabelArtistChange[] = [];
    const ids = new Set<number>();
    for (const [i, a] of (req.artists ?? []).entries()) {
      const platforms = await resolveChoices(directory, a.platforms, `artists.${i}.platforms`, errors);
      const change: LabelArtistChange = { name: a.name, platforms };
      if (a.id !== undefined) {
        // Another label's artist, or one already removed, is a wrong field of this body (422), as
        // an unknown artist_id of a release's credit is; 404 is for what a request acts on.
        const id = /^[1-9][0-9]{0,15}$/.test(String(a.id)) ? Number(a.id) : NaN;
        if (!Number.isSafeInteger(id) || !labelArtistExists(db, user.id, id)) {
          errors.add(`artists.${i}.id`, `you manage no artist ${a.id}; see GET /preferences/label`);
          continue;
        }
        if (ids.has(id)) errors.add(`artists.${i}.id`, `artist ${id} is given more than once`);
        ids.add(id);
        change.id = id;
      }
      artists.push(change);
    }
    errors.throwIfAny();

    return commit(() => {
      const { added, updated } = saveLabelPreferences(db, user.id, settings, artists, now());
      const parts = [added > 0 ? `${plural(added, 'artist')} added` : '', updated > 0 ? `${plural(updated, 'artist')} updated` : ''].filter(Boolean);
      return { message: `Label preferences saved${parts.length > 0 ? `: ${parts.join(', ')}` : ''}.` };
    });
  },

  getLabelArtist({ user, params }, { db }) {
    const artist = getLabelArtist(db, user.id, parseId(params.id, 'label artist'));
    if (!artist) throw new ServiceError(404, 'not_found', `label artist ${params.id} not found`);
    return artist;
  },

  removeLabelArtist({ user, body }, { db }) {
    const raw = artistIdOf(body);
    const id = parseId(raw, `label artist ${raw}`);
    const name = removeLabelArtist(db, user.id, id);
    if (name === undefined) throw new ServiceError(404, 'not_found', `label artist ${raw} not found`);
    return { message: `Artist ${id} (${name}) removed from the label's artists; releases that credit them keep the name.` };
  },
};
