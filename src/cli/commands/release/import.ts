// `release import <spreadsheet> --dir DIR`: a distributor's template (or any one-row-per-track
// sheet) turned into release files (src/cli/import/ does the reading; this prints and writes).
// Everything is read, checked and named before the first file is written.
import { resolve } from 'node:path';
import type { Context } from '../../context.js';
import { CliError, ExitCode, UsageError } from '../../errors.js';
import { plural, tsvCell } from '../../output/index.js';
import { convert, type Converted } from '../../import/convert.js';
import type { ImportedRelease } from '../../import/group.js';
import type { RowProblem } from '../../import/map-rows.js';
import { TEMPLATE_CHOICES } from '../../import/templates.js';
import { fileNames, refuseOverwrite, writeReleaseFiles } from '../../import/write-files.js';
import { choiceOption } from '../../shared/args.js';
import type { ImportOpts } from './spec.js';
import { isAudioAddress } from '../../release-file/audio-address.js';

/** Problems printed one by one on stderr before they are only counted (all of them are in --json). */
const SHOWN_PROBLEMS = 200;

interface ReleaseLine {
  type: 'release';
  catalog_number: string;
  file: string | null;
  outcome: 'written' | 'not_written';
  /** The sheet lines it was read from. */
  lines: number[];
  tracks: number;
  audio: Converted['audio'];
  note: string | null;
}

export async function run(ctx: Context, opts: ImportOpts, args: string[]): Promise<void> {
  const source = args[0]!;
  if (opts.dir === undefined || opts.dir.trim() === '')
    throw new UsageError(
      'release import: --dir is required (the folder to write the release files to)',
      `e.g. \`reldist release import ${source} --dir catalog/\``,
    );
  const template = choiceOption(opts.template, '--template', TEMPLATE_CHOICES) ?? 'auto';
  const dir = resolve(opts.dir);
  const converted = await convert(source, { template, dir, audioDir: opts.audioDir, now: ctx.now() });
  const { releases } = converted;
  const writable = releases.filter((r) => !r.failed || (opts.partial === true && r.partialOk && hasTracks(r)));
  const names = fileNames(writable);
  await refuseOverwrite(dir, opts.dir, names, opts.force === true);
  const items = writable.map((release, i) => ({ release, name: names[i]! }));
  await writeReleaseFiles(dir, opts.dir, source, items);

  const nameOf = new Map(items.map((i) => [i.release, i.name]));
  const lines = releases.map((r): ReleaseLine => releaseLine(r, nameOf.get(r)));
  report(ctx, opts.dir, source, converted, lines, opts.partial === true);
}

function hasTracks(r: ImportedRelease): boolean {
  return Array.isArray(r.data.tracks) && r.data.tracks.length > 0 && r.rows.some((row) => !row.refused);
}

function releaseLine(r: ImportedRelease, name: string | undefined): ReleaseLine {
  const tracks = (r.data.tracks as { file?: string }[] | undefined) ?? [];
  const urls = tracks.filter((t) => t.file !== undefined && isAudioAddress(t.file)).length;
  const files = tracks.filter((t) => t.file !== undefined).length - urls;
  return {
    type: 'release',
    catalog_number: r.catalogNumber,
    file: name ?? null,
    outcome: name === undefined ? 'not_written' : 'written',
    lines: r.rows.map((row) => row.line),
    tracks: tracks.length,
    audio: { files, urls, none: tracks.length - files - urls },
    note: r.catalogFromUpc ? 'no catalog number in the sheet: the UPC stands as the catalog number (apply finds the release by it)' : null,
  };
}

function where(p: RowProblem, source: string): string {
  return `${source}:${p.sheet !== undefined ? `${p.sheet}:` : ''}${p.line}`;
}

function problemText(p: RowProblem, source: string): string {
  return `${p.severity}: ${where(p, source)}: ${p.column ? `${p.column}: ` : ''}${p.code}: ${p.message}`;
}

function report(ctx: Context, shownDir: string, source: string, c: Converted, lines: readonly ReleaseLine[], partial: boolean): void {
  const { layout, problems } = c;
  const written = lines.filter((l) => l.outcome === 'written');
  const notWritten = lines.filter((l) => l.outcome === 'not_written');
  const refusedRows =
    c.releases.flatMap((r) => r.rows).filter((r) => r.refused).length +
    c.problems.filter((p) => p.severity === 'error' && p.sheet !== layout.sheet.name).length;
  const unplaced = c.rows - c.releases.reduce((n, r) => n + r.rows.length, 0);
  const rowsRefused = refusedRows + unplaced;
  const errors = problems.filter((p) => p.severity === 'error').length;
  const summary = {
    type: 'summary' as const,
    source,
    template: layout.template.id,
    sheet: layout.sheet.name ?? null,
    header_line: layout.sheet.lines[layout.headerRow]!,
    rows: c.rows,
    contributor_rows: c.contributorSheet?.rows ?? null,
    releases: lines.length,
    releases_written: written.length,
    rows_refused: rowsRefused,
    warnings: problems.length - errors,
    columns_not_mapped: layout.unmapped.map((u) => ({ column: u.letter, header: u.header, reason: u.reason })),
    sheets_not_read: c.sheetsNotRead,
    dir: shownDir,
  };
  if (ctx.globals.json) {
    let out = '';
    for (const p of problems) out += `${JSON.stringify({ type: 'problem', ...p, sheet: p.sheet ?? null, column: p.column ?? null })}\n`;
    for (const l of lines) out += `${JSON.stringify(l)}\n`;
    out += `${JSON.stringify(summary)}\n`;
    ctx.io.stdout.write(out);
  } else {
    if (!ctx.io.stdoutIsTTY)
      ctx.io.stdout.write(lines.map((l) => `${[l.catalog_number, l.outcome, l.file ?? '', l.tracks].map((v) => tsvCell(String(v))).join('\t')}\n`).join(''));
    let err = '';
    const shown = problems.filter((p) => p.severity === 'error').concat(problems.filter((p) => p.severity === 'warning'));
    for (const p of shown.slice(0, SHOWN_PROBLEMS)) err += `${problemText(p, source)}\n`;
    if (shown.length > SHOWN_PROBLEMS) err += `… and ${shown.length - SHOWN_PROBLEMS} more problems (all of them with --json)\n`;
    // Problems are never silenced; the summary is said even when stderr is no terminal (a CI log
    // should show what was read and what was left out), unless --quiet.
    ctx.io.stderr.write(err);
    err = '';
    const say = (line: string) => {
      err += `${line}\n`;
    };
    const sheet = layout.sheet.name !== undefined ? `sheet ${layout.sheet.name}, ` : '';
    say(
      `read ${source}: ${layout.template.title}, ${sheet}header on line ${summary.header_line}, ${plural(c.rows, 'row')}${c.contributorSheet ? ` (and ${plural(c.contributorSheet.rows, 'contributor row')} on sheet ${c.contributorSheet.name})` : ''}, ${plural(lines.length, 'release')}`,
    );
    if (layout.unmapped.length > 0)
      say(`columns not mapped: ${layout.unmapped.map((u) => `${u.header || '(no header)'} (column ${u.letter}: ${u.reason})`).join('; ')}`);
    if (c.sheetsNotRead.length > 0) say(`sheets not read: ${c.sheetsNotRead.join(', ')} (no release or contributor rows of this template)`);
    const byUpc = written.filter((l) => l.note !== null);
    if (byUpc.length > 0)
      say(`${plural(byUpc.length, 'release')} without a catalog number take their UPC as one: ${byUpc.map((l) => l.catalog_number).join(', ')}`);
    const none = written.reduce((n, l) => n + l.audio.none, 0);
    if (none > 0) say(`${plural(none, 'track')} written without audio: \`reldist release apply\` creates them without, and their submit waits for the audio`);
    say(
      `wrote ${plural(written.length, 'release file')} to ${shownDir}${notWritten.length > 0 ? `; ${notWritten.length} not written (${notWritten.map((l) => l.catalog_number).join(', ')})` : ''}`,
    );
    if (!ctx.globals.quiet) ctx.io.stderr.write(err);
  }
  if (rowsRefused > 0 || notWritten.length > 0) {
    const kept = partial
      ? 'the releases with refused rows were written without them'
      : 'releases with a refused row were not written (--partial writes them without those rows)';
    throw new CliError(`${plural(rowsRefused, 'row')} of ${source} refused: ${kept}`, {
      exitCode: ExitCode.failure,
      code: 'import_incomplete',
      hint: 'each refused row is listed with its line, column and reason; fix the sheet and import again (--force replaces the files written)',
    });
  }
}
