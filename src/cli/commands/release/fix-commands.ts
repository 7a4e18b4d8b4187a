// The command that fixes each submit problem, by its code: the service words its hints for any API
// client ("Add at least one contributor with role composer."); at the CLI the hint names the
// command, with the release and the track filled in. One table, here, rather than in src/rules:
// the service must not speak of a CLI's commands, and the CLI knows its own flags.
import type { EntityId, Problem } from '../../../contract/index.js';
import { inCliTerms } from '../../service-text.js';

type Fix = (at: { release: string; track: string | undefined; field: string }) => string | undefined;

const trackEdit =
  (flags: string): Fix =>
  ({ release, track }) =>
    track === undefined ? undefined : `\`reldist track edit ${release} ${track} ${flags}\``;
const releaseEdit =
  (flags: string): Fix =>
  ({ release }) =>
    `\`reldist release edit ${release} ${flags}\``;
/** A title rule on the release's title or on a track's. */
const titleFix =
  (releaseFlags: string, trackFlags: string): Fix =>
  (at) =>
    at.track === undefined ? releaseEdit(releaseFlags)(at) : trackEdit(trackFlags)(at);
const REQUIRED: Record<string, string> = {
  title: '--title TITLE',
  label: '--label NAME',
  genre: '--genre GENRE',
  language: '--language CODE',
  p_line: '--p-line "YEAR OWNER"',
  c_line: '--c-line "YEAR OWNER"',
  'delivery.release_date': '--release-date YYYY-MM-DD',
};

const FIXES: Record<string, { words: string; fix: Fix }> = {
  required: { words: 'set it', fix: (at) => (REQUIRED[at.field] ? releaseEdit(REQUIRED[at.field]!)(at) : undefined) },
  composer_missing: { words: 'add one', fix: trackEdit('--composer NAME') },
  lyricist_missing: {
    words: 'add one, or mark the track instrumental',
    fix: (at) => (at.track === undefined ? undefined : `${trackEdit('--lyricist NAME')(at)} or ${trackEdit('--audio-language instrumental')(at)}`),
  },
  title_has_featuring: { words: 'credit the artist instead', fix: titleFix('--title TITLE --featuring NAME', '--title TITLE --featuring NAME') },
  title_has_explicit_marker: { words: 'set the explicit field instead', fix: titleFix('--title TITLE --explicit clean', '--title TITLE --explicit clean') },
  title_has_marketing_words: { words: 'retitle it', fix: titleFix('--title TITLE', '--title TITLE') },
  title_has_version: { words: 'move the version', fix: titleFix('--title TITLE --release-version VERSION', '--title TITLE --track-version VERSION') },
  title_generic: { words: 'retitle it', fix: titleFix('--title TITLE', '--title TITLE') },
  primary_artist_missing: { words: 'add one', fix: titleFix('--artist NAME', '--artist NAME') },
  artist_several_people: { words: 'one person per entry', fix: titleFix('--artist NAME --artist NAME', '--artist NAME --artist NAME') },
  artist_name_generic: { words: 'use the real name', fix: titleFix('--artist NAME', '--artist NAME') },
  artist_featured_and_primary: { words: 'keep one role', fix: titleFix('--featuring ""', '--featuring ""') },
  upc_invalid: { words: 'fix it, or clear it to have one assigned', fix: releaseEdit('--upc CODE (or --upc "")') },
  upc_in_use: { words: 'clear it to have one assigned', fix: releaseEdit('--upc ""') },
  isrc_invalid: { words: 'fix it, or clear it to have one assigned', fix: trackEdit('--isrc CODE (or --isrc "")') },
  isrc_duplicate: { words: 'give it its own, or clear it', fix: trackEdit('--isrc CODE (or --isrc "")') },
  preorder_not_before_release: { words: 'move it', fix: releaseEdit('--preorder-date YYYY-MM-DD') },
  original_release_after_release: { words: 'move it', fix: releaseEdit('--original-release-date YYYY-MM-DD') },
  release_date_soon: { words: 'move it', fix: releaseEdit('--release-date YYYY-MM-DD') },
  no_tracks: { words: 'add some', fix: ({ release }) => `\`reldist track upload ${release} FILE…\`` },
  audio_duplicate: {
    words: 'replace the audio of one',
    fix: ({ release }) => `\`reldist track list ${release}\`, then \`reldist track replace ${release} TRACK-ID FILE\``,
  },
  track_file_missing: {
    words: 'upload it',
    fix: ({ release }) => `\`reldist track list ${release}\`, then \`reldist track replace ${release} TRACK-ID FILE\``,
  },
};

/** Where a problem is: the track (its place on the release, 1-based) or the release itself, and the field. */
function placeOf(path: string): { track: string | undefined; field: string } {
  const m = /^tracks\.(\d+)(?:\.(.*))?$/.exec(path);
  return m ? { track: String(Number(m[1]) + 1), field: m[2] ?? '' } : { track: undefined, field: path };
}

/** The problems with their hints naming the command that fixes each (where the table knows one). */
export function withFixCommands(problems: readonly Problem[], releaseId: EntityId): Problem[] {
  return problems.map((p) => {
    const entry = FIXES[p.code];
    const command = entry?.fix({ release: String(releaseId), ...placeOf(p.path ?? '') });
    if (!entry || command === undefined) return p;
    // The service's words stay unless they already point at a command (with <id> for the release).
    const said = p.hint ? inCliTerms(p.hint) : '';
    const keep = said !== '' && !said.includes('`reldist');
    return {
      ...p,
      hint: keep ? `${said.replace(/\.?\s*$/, '')}; ${entry.words}: ${command}` : `${entry.words[0]!.toUpperCase()}${entry.words.slice(1)}: ${command}`,
    };
  });
}
