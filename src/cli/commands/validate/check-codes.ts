// `reldist validate upc|isrc|any`: checks codes from arguments, stdin ('-') or --file, streaming, in
// input order. Offline by default: this module and src/codes load nothing heavy.
import { createReadStream } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import { extname } from 'node:path';
import { checkIsrc, checkUpc, codeKey, diagnoseDamage } from '../../../codes/index.js';
import type { Context } from '../../context.js';
import { CliError, UsageError, ValidationFailed } from '../../errors.js';
import { idArg } from '../../shared/args.js';
import { csvHeader, csvRow, jsonLine, plainRow, type PlaceFields, type RemoteVerdict, type Verdict, type Where } from './format.js';
import type { Cell, Separator } from './csv-input.js';
import { DuplicateIndex, duplicateProblem, placeText } from './duplicates.js';
import { fastLines, type FastLines } from './fast.js';
import { utf8Chunks } from './utf16.js';
import { refuseWorkbook } from './workbook.js';
import { invalidLines } from './invalid-lines.js';
import { eachLine, splitLines, type Blanks, type LineHandler, type LineSink } from './lines.js';
import { Tally } from './tally.js';
import type { ValidateOptions } from './options.js';
import type { TableRows } from './table.js';
import { ByteWriter } from './writer.js';
import { tableRows } from './table.js';

export type CodeKind = 'upc' | 'isrc';

const TABLE_BATCH = 200;
/** Set (to anything) in the environment: every line takes the general path (tests compare both paths; benches measure them). */
export const GENERAL_PATH_ENV = 'RELDIST_VALIDATE_GENERAL_PATH';

/**
 * `validate any`: a code with an ASCII letter in it (other than the E of scientific notation) is
 * an ISRC, any other a UPC/EAN/GTIN.
 */
export function kindOf(input: string): CodeKind {
  return /[A-Za-z]/.test(input) && !/^\s*[+-]?\d+(?:[.,]\d+)?[eE][+]?\d+\s*$/.test(input) ? 'isrc' : 'upc';
}

export async function checkCodes(ctx: Context, kind: CodeKind | 'any', opts: ValidateOptions, args: string[]): Promise<void> {
  const noCode = `no ${kind === 'any' ? 'code' : kind.toUpperCase()} to check`;
  // Nothing named but something piped in (`echo CODE | reldist validate upc`): stdin is read, as
  // for '-'. On a terminal there is nothing to wait for: say what to give.
  const implicitStdin = args.length === 0 && opts.file === undefined && !ctx.io.stdinIsTTY;
  if (args.length === 0 && opts.file === undefined && !implicitStdin) {
    throw new UsageError(noCode, `give codes as arguments, pipe them in ('-' reads stdin after arguments), or --file F`);
  }
  if (implicitStdin) args = ['-'];
  const fileIsStdin = opts.file === '-';
  if (args.filter((a) => a === '-').length + (fileIsStdin ? 1 : 0) > 1)
    throw new UsageError("'-' (stdin) can be given only once", fileIsStdin ? "use either '-' or --file -" : undefined);
  if (opts.release !== undefined && !opts.remote) throw new UsageError('--release needs --remote', 'the release is only known to the service');
  if (opts.format !== undefined && opts.format !== 'csv')
    throw new UsageError(`--format ${opts.format}: the only format is csv`, 'the default is rows (piped) or a table (terminal); --json gives JSON Lines');
  if (opts.format !== undefined && ctx.globals.json) throw new UsageError('--format csv and --json: choose one');

  const currentYear = ctx.now().getUTCFullYear();
  const isrcOptions = { currentYear };
  const kindOfInput: (input: string) => CodeKind = kind === 'any' ? kindOf : () => kind;
  const engine = (input: string, k: CodeKind): Verdict => (k === 'upc' ? checkUpc(input) : checkIsrc(input, isrcOptions));
  // Spreadsheet damage is looked for only in invalid codes: the valid path pays nothing.
  const check = (input: string): Verdict => {
    const k = kindOfInput(input);
    const v = engine(input, k);
    if (v.valid) return v;
    const damage = diagnoseDamage(input, k, isrcOptions);
    return damage ? { ...v, problems: damage.problems, repaired: damage.repaired, fixed: damage.fixed } : v;
  };
  const out = new ByteWriter(ctx.io.stdout);
  const mode = ctx.globals.json ? 'json' : opts.format === 'csv' ? 'csv' : ctx.io.stdoutIsTTY ? 'table' : 'plain';
  const fix = Boolean(opts.fix);
  const invalidOnly = Boolean(opts.invalidOnly);
  const fileDelimiter = opts.file === undefined ? undefined : csvDelimiterOf(opts.file, opts.column);
  // Lines of a file or stdin have numbers (so do a table's records); arguments do not.
  const numberedInput = opts.file !== undefined || args.includes('-');
  // A table (CSV/TSV) is read with a column, named in every record too.
  const tableInput = opts.column !== undefined || fileDelimiter !== undefined;
  const placeFields: PlaceFields = { line: numberedInput, column: tableInput };
  // --file's size, read once: at most its number of lines (the width of the terminal's Line column), and the sizing of the duplicate index.
  const fileSize = opts.file === undefined || fileIsStdin ? undefined : (await stat(opts.file).catch(() => undefined))?.size;
  const table: TableRows | undefined =
    mode === 'table'
      ? tableRows({ color: ctx.color, remote: Boolean(opts.remote), line: numberedInput, fix, width: ctx.io.columns, lines: fileSize })
      : undefined;
  /** Blank lines and empty cells skipped, for the summary. */
  const blanks: Blanks = { n: 0 };
  const withDisplay = kind === 'isrc';
  // Loaded only for --remote: offline checking loads neither the contract nor the client.
  const remoteModule = opts.remote && kind !== 'any' ? await import('./remote.js') : undefined;
  const remote =
    remoteModule && kind !== 'any'
      ? await remoteModule.remoteChecker(ctx, kind, opts.release === undefined ? undefined : idArg(opts.release, '--release'))
      : undefined;

  const tally = new Tally();
  // Duplicates: the first place each valid code was seen (UPCs as GTIN-14: 0012… = 012…), one
  // index per kind, shared with the bulk path.
  // Sized once from a file's size (a code and its newline are about 13 bytes).
  const expected = (fileSize ?? 0) / 13;
  const seen = { upc: new DuplicateIndex(kind === 'isrc' ? 0 : expected), isrc: new DuplicateIndex(kind === 'upc' ? 0 : expected) };
  let ordinal = 0;
  /** Where the code being read comes from, when known (CSV/TSV input). */
  let where: Where | undefined;

  const emit = (input: string, v: Verdict, r?: RemoteVerdict, at: Where | undefined = where) => {
    tally.checked++;
    ordinal++;
    if (v.valid && v.normalized !== null) {
      const k = v.kind === 'isrc' ? 'isrc' : 'upc';
      const first = seen[k].firstOrAdd(codeKey(k, v.normalized), at ? at.line : -ordinal);
      if (first !== 0) v = { ...v, problems: [...v.problems, duplicateProblem(placeText(first))] };
    }
    if (v.valid && (r === undefined || r.valid)) tally.valid++;
    else tally.invalid++;
    if (v.valid && v.problems.length > 0) tally.warned++;
    for (const p of v.problems) tally.counter(p.code).n++;
    // The service's own findings (upc_in_use…) count too; those it shares with the engine, once.
    for (const p of r?.problems ?? []) if (!v.problems.some((q) => q.code === p.code)) tally.counter(p.code).n++;
    if (invalidOnly && v.valid && (r === undefined || r.valid)) return;
    // ISRC results carry `display` (null when invalid), UPC results none: `any` mixes both.
    if (mode === 'json') out.text(jsonLine(input, v, withDisplay || 'display' in v, r, at, fix));
    else if (mode === 'plain') out.text(plainRow(input, v, r, at, placeFields, fix));
    else if (mode === 'csv') out.text(csvRow(input, v, at, r, tableInput, fix));
    else table!.add(input, v, r, at);
  };
  if (mode === 'csv') out.text(csvHeader(remote !== undefined, tableInput, fix));

  const afterChunk = (): Promise<void> | undefined => {
    if (ctx.signal.aborted) throw ctx.signal.reason ?? new CliError('interrupted');
    if (table && (table.streaming || table.pending >= TABLE_BATCH)) out.text(table.render());
    return out.maybeFlush(table !== undefined);
  };

  // Offline, each line is checked as it is split; in bulk (JSON or piped rows), a plain valid
  // code goes straight from input bytes to output bytes (fast.ts), anything else through the
  // engine for its reasons. With --remote, lines wait for the service's answers.
  let sink: LineSink;
  let afterEachChunk: () => Promise<void> | undefined;
  /** Everything read so far is written (with --remote, answered too). */
  let settle = async () => {
    await afterEachChunk();
  };
  /** --remote: waits until the answers to every code sent are written. */
  let remoteWritten: (() => Promise<void>) | undefined;
  let fast: FastLines | undefined;
  if (remoteModule === undefined || remote === undefined) {
    const line: LineHandler = (b, s, e, lineNo) => {
      const text = b.toString('utf8', s, e);
      emit(text, check(text), undefined, where ?? (lineNo === undefined ? undefined : { line: lineNo }));
    };
    // The bulk path: JSON, rows, or the terminal once its table streams; not for CSV output or
    // `any`. Valid lines are counted, not written, when only the invalid ones are wanted.
    const bulk = kind !== 'any' && mode !== 'csv' && ctx.env[GENERAL_PATH_ENV] === undefined;
    if (bulk) {
      const writes = mode === 'json' || mode === 'plain' ? mode : undefined;
      const invalid = writes ? invalidLines(kind, writes, numberedInput, out, tally, fix) : undefined;
      fast = fastLines(kind, invalidOnly || writes === undefined ? 'count' : writes, currentYear, out, line, {
        lineNumbers: numberedInput,
        duplicates: seen[kind],
        invalid,
        fix,
        blanks,
      });
    }
    const fastLinesOf = fast?.lines;
    sink = {
      line,
      blanks,
      // The terminal shows every row of its first rows: the bulk path only once it streams.
      lines:
        fastLinesOf &&
        (table
          ? (b, s, e, first) => {
              if (!table.streaming) return splitLines(b, s, e, first, line, blanks);
              table.beginStream();
              return fastLinesOf(b, s, e, first);
            }
          : fastLinesOf),
    };
    afterEachChunk = afterChunk;
  } else {
    // Lines go to the service in chunks of the contract's maximum, a few requests in flight
    // (remote.ts), and are written in input order as the answers come, while more input is read.
    // The end of each input chunk sends what is left of it, so a slow source (a pipe, a person
    // typing) sees each answer without waiting for more input. Memory: a few chunks of lines.
    const queue = new remoteModule.RemoteQueue<{ line: string; at: Where | undefined }>(
      remote,
      (l) => l.line,
      ({ line, at }, answer) => {
        emit(line, check(line), answer, at);
        return afterChunk();
      },
      () => out.flush(),
    );
    let pending: { line: string; at: Where | undefined }[] = [];
    sink = {
      blanks,
      line: (b, s, e, lineNo) => {
        pending.push({ line: b.toString('utf8', s, e), at: where ?? (lineNo === undefined ? undefined : { line: lineNo }) });
      },
    };
    afterEachChunk = async () => {
      const lines = pending;
      pending = [];
      await queue.add(lines);
      await queue.send();
    };
    settle = async () => {
      await afterEachChunk();
      await queue.drain();
    };
    remoteWritten = () => queue.drain();
  }

  /** Table input: each chosen cell goes to the sink as a line would, with its place. */
  const readCells = async (cells: AsyncIterable<Cell[]>) => {
    for await (const batch of cells) {
      for (const cell of batch) {
        where = { line: cell.line, column: cell.column };
        const bytes = Buffer.from(cell.value, 'utf8');
        sink.line(bytes, 0, bytes.length);
      }
      where = undefined;
      const wait = afterEachChunk();
      if (wait) await wait;
    }
  };
  const readTable = async (source: AsyncIterable<Buffer>, name: string, separator: Separator) => {
    const { columnCells, delimiterOf } = await import('./csv-input.js');
    const { first, rest } = await peek(source);
    refuseWorkbook(first, name);
    await readCells(columnCells(rest, name, kind, delimiterOf(first ?? Buffer.alloc(0), separator), opts.column, blanks));
  };

  /** A plain list: one code per line (UTF-16 transcoded; a workbook refused before a line is read). */
  const readList = async (source: AsyncIterable<Buffer>, name: string) => {
    const { first, rest } = await peek(source);
    refuseWorkbook(first, name);
    await eachLine(utf8Chunks(rest), name, sink, afterEachChunk);
  };

  const readStdin = async () => {
    if (opts.column !== undefined) await readTable(ctx.io.stdin as AsyncIterable<Buffer>, 'stdin', 'sniff');
    else await readList(ctx.io.stdin as AsyncIterable<Buffer>, 'stdin');
  };

  try {
    for (const arg of args) {
      if (arg === '-') {
        await afterEachChunk();
        await readStdin();
      } else {
        const bytes = Buffer.from(arg, 'utf8');
        // An argument is one code, even an empty one: it is checked, not skipped like a blank line.
        if (bytes.length === 0) {
          await settle();
          emit(arg, check(arg));
        } else sink.line(bytes, 0, bytes.length);
        // With --remote the arguments go to the service together, as one chunk.
        if (remote === undefined) await afterEachChunk();
      }
    }
    if (opts.file !== undefined) {
      await afterEachChunk();
      if (fileIsStdin) await readStdin();
      else if (fileDelimiter !== undefined) {
        await readTable(createReadStream(opts.file), `--file ${opts.file}`, fileDelimiter).catch(fileError(opts.file));
      } else {
        await readList(fileChunks(opts.file), `--file ${opts.file}`).catch(fileError(opts.file));
      }
    }
    // The last line of an input without a final newline arrives after its last chunk.
    await settle();
  } catch (err) {
    // With --remote the service can fail half-way (401, 429 after retries), or the input (a
    // missing --file) after codes were sent: the codes answered so far are printed, so that what
    // was checked is on record.
    if (remote !== undefined) {
      await remoteWritten?.().catch(() => {});
      if (table) out.text(table.render());
      await out.flush().catch(() => {});
    }
    throw err;
  }

  // Piped in without '-' and nothing there (not even a blank line): as if nothing was given.
  if (implicitStdin && tally.checked + (fast?.valid() ?? 0) + blanks.n === 0) {
    throw new UsageError(noCode, 'stdin was empty: give codes as arguments, pipe them in, or --file F');
  }
  if (table) out.text(table.render());
  await out.flush();
  if (fast) {
    tally.checked += fast.valid();
    tally.valid += fast.valid();
    tally.warned += fast.repeated();
    if (fast.repeated() > 0) tally.counter('duplicate').n += fast.repeated();
  }
  const { checked, valid, invalid, warned } = tally;
  const empty = blanks.n;

  // Bulk checking promises a summary on stderr, piped or not (a CI log keeps it); --quiet drops it.
  if (!ctx.globals.quiet) {
    const problems = tally.problems();
    const byText = Object.entries(problems)
      .map(([code, n]) => `${code} ${n}`)
      .join(', ');
    ctx.io.stderr.write(
      ctx.globals.json
        ? `${JSON.stringify({ summary: { checked, valid, invalid, warnings: warned, empty, problems } })}\n`
        : `checked ${checked}, valid ${valid}, invalid ${invalid}, warnings ${warned}${empty > 0 ? `, ${empty} empty skipped` : ''}\n${byText === '' ? '' : `by problem: ${byText}\n`}`,
    );
  }
  if (invalid > 0) {
    throw new ValidationFailed(`${invalid} of ${checked} code${checked === 1 ? ' is' : 's are'} invalid`);
  }
}

/**
 * How --file is read: as a CSV or TSV table (by extension), 'sniff' for another file given
 * --column (a tab in the first line means TSV), undefined for a plain list (the fast path).
 */
function csvDelimiterOf(path: string, column: string | undefined): Separator | undefined {
  const ext = extname(path).toLowerCase();
  if (ext === '.csv') return 'csv';
  if (ext === '.tsv' || ext === '.tab') return '\t';
  return column === undefined ? undefined : 'sniff';
}

/** The first chunk of a stream, and the whole stream again (first chunk included). */
async function peek(source: AsyncIterable<Buffer>): Promise<{ first: Buffer | undefined; rest: AsyncIterable<Buffer> }> {
  const it = source[Symbol.asyncIterator]();
  const head = await it.next();
  const first = head.done ? undefined : Buffer.from(head.value);
  async function* rest(): AsyncGenerator<Buffer> {
    if (first) yield first;
    for (let r = await it.next(); !r.done; r = await it.next()) yield r.value;
  }
  return { first, rest: rest() };
}

// 64 KiB: measured against 256 KiB and 1 MiB (1M ISRCs, in-process timing, 12 interleaved runs),
// the fast loop's time was lowest with 64 KiB chunks (medians ~100 ms vs ~120 and ~175), likely
// because a loop called often reaches optimized code sooner, and the chunk stays in cache.
const READ_SIZE = 1 << 16;

/**
 * The file in chunks, read into two buffers in turn: the next chunk is read (on the thread pool)
 * while the caller works on this one, which it is done with before it asks for the next. Fresh
 * memory per chunk meant page faults and garbage; one buffer meant waiting for every read (a
 * profile of a million codes showed 10-30 ms idle).
 */
async function* fileChunks(path: string): AsyncGenerator<Buffer> {
  const file = await open(path, 'r');
  const buffers = [Buffer.allocUnsafe(READ_SIZE), Buffer.allocUnsafe(READ_SIZE)];
  let turn = 0;
  let reading = file.read(buffers[0]!, 0, READ_SIZE, null);
  try {
    for (;;) {
      const { bytesRead, buffer } = await reading;
      if (bytesRead === 0) return;
      turn ^= 1;
      reading = file.read(buffers[turn]!, 0, READ_SIZE, null);
      yield buffer.subarray(0, bytesRead);
    }
  } finally {
    // A caller that stopped early (an error, a closed output) leaves a read in flight.
    await reading.catch(() => undefined);
    await file.close();
  }
}

/** A missing or unreadable file is a usage error naming the flag, not a stack trace. */
function fileError(path: string) {
  return (err: unknown): never => {
    const code = (err as NodeJS.ErrnoException | undefined)?.code;
    const why: Record<string, string> = {
      ENOENT: 'no such file',
      EACCES: 'permission denied',
      EISDIR: 'is a directory, not a file',
    };
    if (code !== undefined && why[code]) throw new UsageError(`--file ${path}: ${why[code]}`);
    throw err;
  };
}
