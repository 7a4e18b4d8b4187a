// How `release watch` shows what it sees: a live table on a terminal's stderr, and one line per
// change of state on stdout (JSON with --json, tab-separated when piped).
import type { EntityId, ReleaseResource } from '../../../contract/index.js';
import type { Context } from '../../context.js';
import { tsvCell } from '../../output/format.js';
import { fitColumns, textWidth, truncate } from '../../output/fit.js';
import { stderrWidth } from '../../output/width.js';
import { formatDuration } from '../../shared/duration.js';
import { statusWords } from '../../shared/release-views.js';

/** One change of state, as --json prints it (the first sighting of a release has previous null). */
export interface WatchEvent {
  release_id: ReleaseResource['id'];
  catalog_number: string | null;
  status: ReleaseResource['status'];
  previous: ReleaseResource['status'] | null;
  at: string;
  review: ReleaseResource['review'];
}

export interface WatchRow {
  id: EntityId;
  catalogNumber: string | null;
  title: string;
  status: string;
  /** When the release entered its state (the service's updated_at at the change). */
  since: Date | undefined;
}

export interface WatchView {
  change(event: WatchEvent): void;
  /** Redraws the table (a terminal only). */
  draw(rows: readonly WatchRow[], now: Date): void;
}

export function watchView(ctx: Context): WatchView {
  const json = ctx.globals.json;
  // JSON on a terminal's stdout would tear the redrawn table apart: then the lines alone.
  const table = ctx.io.stderrIsTTY && !ctx.globals.quiet && !(json && ctx.io.stdoutIsTTY);
  const lines = json || !ctx.io.stdoutIsTTY;
  let drawn = 0;
  return {
    change(e) {
      if (!lines) return;
      if (json) ctx.io.stdout.write(`${JSON.stringify(e)}\n`);
      else {
        const cells = [String(e.release_id), e.catalog_number ?? '', e.status, e.previous ?? '', e.at, e.review?.codes.join(',') ?? '', e.review?.notes ?? ''];
        ctx.io.stdout.write(`${cells.map(tsvCell).join('\t')}\n`);
      }
    },
    draw(rows, now) {
      if (!table) return;
      const text = renderTable(rows, now, stderrWidth(ctx));
      // Up over the last drawing and clear it, then draw again.
      ctx.io.stderr.write(`${drawn > 0 ? `\x1b[${drawn}A\x1b[J` : ''}${text}`);
      drawn = text.split('\n').length - 1;
    },
  };
}

const HEADERS = ['ID', 'CATALOG NO', 'TITLE', 'STATE', 'SINCE'];
// Within the terminal's width, or the redraw (which moves up over the lines it drew) would miss
// the lines the terminal wrapped: the title gives up its tail, then the time in the state goes.
const FIT = [{ header: 'ID' }, { header: 'CATALOG NO' }, { header: 'TITLE', cut: true }, { header: 'STATE' }, { header: 'SINCE', drop: 1 }];

export function renderTable(rows: readonly WatchRow[], now: Date, width?: number): string {
  const cells = rows.map((r) => [
    String(r.id),
    r.catalogNumber ?? '',
    r.title.length > 40 ? `${r.title.slice(0, 39)}…` : r.title,
    statusWords(r.status),
    r.since ? formatDuration(Math.max(0, now.getTime() - r.since.getTime())) : '',
  ]);
  const fitted = width === undefined ? undefined : fitColumns(FIT, cells, width, 2);
  const keep = fitted?.keep ?? HEADERS.map((_, i) => i);
  const widths = fitted?.widths ?? HEADERS.map((h, i) => Math.max(h.length, ...cells.map((c) => textWidth(c[i]!))));
  const line = (c: string[]) =>
    `${keep
      .map((i, k) => {
        const v = truncate(c[i]!, widths[k]!);
        return v + ' '.repeat(Math.max(0, widths[k]! - textWidth(v)));
      })
      .join('  ')
      .trimEnd()}\n`;
  return line(HEADERS) + cells.map(line).join('');
}
