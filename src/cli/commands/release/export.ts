// `release export [<release>… | --all] --dir DIR`: releases of the service written as release
// files (release-file/export.ts says what goes in one) that `release apply DIR --plan` sees as
// unchanged. Files are written as the pages arrive, each created in place (`wx`) when the folder
// held no file of its name at the start (a file in the way is replaced, with
// --force, by a temporary file renamed over it, once every release is read). What only the whole
// catalog tells (a catalog number two releases share, a file in the way without --force) is
// settled after the last page, as if every name had been decided first: the files of releases
// that share a catalog number are removed again, and a refusal removes everything this run
// created. Any failure or stop does the same, so a run leaves every file it meant or none of
// those it created.
import { mkdir, readdir, rm, rmdir } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import type { ReleaseResource } from '../../../contract/index.js';
import { paging } from '../../../contract/routes.js';
import { normaliseCatalogNumber } from '../../apply/catalog-key.js';
import { runPool } from '../../apply/pool.js';
import type { Context } from '../../context.js';
import { CliError, ExitCode, UsageError } from '../../errors.js';
import { note, plural, progress, tsvCell, writeStderr } from '../../output/index.js';
import { exportFileName, exportRelease } from '../../release-file/export.js';
import { toYaml } from '../../release-file/yaml-emit.js';
import { writeNewSync, writeWhole } from '../../release-file/write-whole.js';
import { choiceOption } from '../../shared/args.js';
import { resolveReleaseRefs } from '../../shared/release-ref.js';
import { STATUSES, type ExportOpts } from './spec.js';

const FORMATS = ['yaml', 'json'] as const;
type Format = (typeof FORMATS)[number];
/** Files replaced (--force) or removed at once: enough to keep the disk busy, few enough not to flood it. */
const WRITES_IN_FLIGHT = 16;
/** Files named in the refusal when some are in the way (the count says the rest). */
const NAMED_IN_REFUSAL = 10;

interface ExportLine {
  release_id: number;
  catalog_number: string | null;
  /** The file written (in --dir), or null when the release was skipped. */
  file: string | null;
  outcome: 'written' | 'skipped';
  reason: string | null;
}

interface Planned {
  release: ReleaseResource;
  data?: Record<string, unknown>;
  name?: string;
  reason?: string;
}

export async function run(ctx: Context, opts: ExportOpts, args: string[]): Promise<void> {
  if (opts.withAudio)
    throw new UsageError(
      '--with-audio: the service offers no download of audio, so it cannot be exported',
      "the files refer to each track's audio by its sha256, which `reldist release apply` checks against the service; keep your masters beside them to re-upload",
    );
  if (opts.dir === undefined || opts.dir.trim() === '')
    throw new UsageError('release export: --dir is required (the folder to write the release files to)', 'e.g. `reldist release export --all --dir catalog/`');
  if (opts.all && args.length > 0) throw new UsageError('name releases or pass --all, not both');
  if (!opts.all && args.length === 0)
    throw new UsageError('release export: name the releases to export, or pass --all', 'e.g. `reldist release export --all --dir catalog/`');
  if (opts.status !== undefined && !opts.all)
    throw new UsageError('--status goes with --all', 'e.g. `reldist release export --all --status draft --dir drafts/`');
  const status = choiceOption(opts.status, '--status', STATUSES);
  const format = choiceOption(opts.format, '--format', FORMATS) ?? 'yaml';
  const dir = resolve(opts.dir);
  const force = opts.force === true;

  const taken = await namesInFolder(dir);
  const madeDir = await mkdir(dir, { recursive: true });
  const releases: ReleaseResource[] = [];
  /** Files this run created (with `wx`): the ones a failure, a stop or a refusal removes. */
  const created = new Set<string>();
  /** The file each release got while the pages came in (by its place in `releases`). */
  const early = new Map<number, string>();
  /** Each release's file data, made once (by its place in `releases`). */
  const dataOf = new Map<number, Record<string, unknown>>();
  const create = (name: string, data: Record<string, unknown>) => {
    createFile(dir, name, render(data, format), opts.dir!);
    created.add(name);
  };
  let planned: Planned[];
  try {
    const nameEarly = earlyNamer(format);
    // A file in the way without --force: the refusal is near, so nothing more is written.
    let holdBack = false;
    for await (const release of opts.all ? listAll(ctx, status) : readNamed(ctx, args)) {
      const index = releases.push(release) - 1;
      const e = nameEarly(release);
      if (e === undefined) continue;
      dataOf.set(index, e.data);
      const inTheWay = taken.has(e.name.toLowerCase());
      holdBack ||= inTheWay && !force;
      // Replacing a file (--force) waits for the whole catalog: a shared catalog number leaves it as it was.
      if (holdBack || inTheWay) continue;
      ctx.signal.throwIfAborted();
      create(e.name, e.data);
      early.set(index, e.name);
    }

    planned = planFiles(releases, format, dataOf);
    if (!force) refuseOverwrite(opts.dir, planned, taken);
    // Where the whole catalog's names differ from the early ones: the files of shared catalog
    // numbers (and of names they moved) go, then what is not written yet is (files in the way
    // with --force, names moved).
    const stale: string[] = [];
    const toWrite: Planned[] = [];
    planned.forEach((p, index) => {
      const name = early.get(index);
      if (name === p.name) return;
      if (name !== undefined) stale.push(name);
      if (p.name !== undefined) toWrite.push(p);
    });
    for (const name of stale) {
      await rm(join(dir, name), { force: true });
      created.delete(name);
    }
    if (toWrite.length > 0) {
      const bar = progress(ctx, 'Writing release files', { unit: 'items', total: toWrite.length });
      let done = 0;
      await runPool(
        toWrite,
        WRITES_IN_FLIGHT,
        async (p) => {
          if (taken.has(p.name!.toLowerCase())) await writeWhole(join(dir, p.name!), render(p.data!, format));
          else create(p.name!, p.data!);
          bar.update(++done, toWrite.length);
        },
        ctx.signal,
      );
      bar.done();
    }
    ctx.signal.throwIfAborted();
  } catch (err) {
    // Stopped (--timeout, Ctrl-C), failed, or refused: what this run created goes; a file replaced with --force stays, whole.
    if (created.size > 0 || madeDir !== undefined)
      await ctx.cleanUp(
        {
          doing: `removing the ${plural(created.size, 'release file')} this run created in ${opts.dir}`,
          leftover: `release files of this run are left in ${opts.dir}; export again with --force to complete them, or remove the folder`,
        },
        () => removeCreated(dir, created, madeDir),
      );
    throw err;
  }
  report(ctx, opts.dir, planned);
}

const HEADER = '# A release file (docs/release-file.md), written by reldist release export.\n';

function render(data: Record<string, unknown>, format: Format): string {
  return format === 'json' ? `${JSON.stringify(data, null, 2)}\n` : HEADER + toYaml(data);
}

/** A file the folder did not hold at the start; one there now was made by something else meanwhile. */
function createFile(dir: string, name: string, text: string, shownDir: string): void {
  try {
    writeNewSync(join(dir, name), text);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    throw new CliError(`${name} appeared in ${shownDir} while exporting (made by something else); the files this run created were removed`, {
      exitCode: ExitCode.failure,
      code: 'export_file_appeared',
      hint: 'export again once nothing else writes to the folder, or to another --dir',
    });
  }
}

async function removeCreated(dir: string, created: ReadonlySet<string>, madeDir: string | undefined): Promise<void> {
  await runPool([...created], WRITES_IN_FLIGHT, (name) => rm(join(dir, name), { force: true }));
  if (madeDir === undefined) return;
  // The folders this run made, if nothing else is in them now.
  for (let d = dir; ; d = dirname(d)) {
    try {
      await rmdir(d);
    } catch {
      return;
    }
    if (d === madeDir) return;
  }
}

async function* listAll(ctx: Context, status: ReleaseResource['status'] | undefined): AsyncGenerator<ReleaseResource> {
  const client = await ctx.services.client();
  const bar = progress(ctx, 'Reading releases', { unit: 'items' });
  // Whole releases, tracks included, a page of the largest size per request.
  const pages = client.pages(
    'listReleases',
    { query: { ...(status ? { status } : {}), include: 'tracks', perPage: paging.maxPerPage } },
    { onPage: (page, total) => bar.update(page, total), ahead: 2 },
  );
  try {
    for await (const page of pages) yield* page;
  } finally {
    bar.done();
  }
}

async function* readNamed(ctx: Context, args: readonly string[]): AsyncGenerator<ReleaseResource> {
  const client = await ctx.services.client();
  const refs = await resolveReleaseRefs(client, args, ctx.signal);
  for (const ref of refs) yield await client.call('getRelease', { params: { releaseId: ref.id } });
}

/** A release's file name from its catalog number, unique in `used` whatever the file system's case rules. */
function uniqueName(release: ReleaseResource, format: Format, used: Set<string>): string {
  let name = exportFileName(release.catalog_number!, format);
  // Two catalog numbers that differ only in characters a file name cannot keep ("NLR/1", "NLR_1").
  if (used.has(name.toLowerCase())) name = name.replace(/\.[a-z]+$/, `-${release.id}$&`);
  used.add(name.toLowerCase());
  return name;
}

/**
 * The file a release gets as it arrives, knowing only the releases before it: none for a
 * catalog number seen before (planFiles skips every holder; the first one's file is removed).
 */
function earlyNamer(format: Format): (release: ReleaseResource) => { name: string; data: Record<string, unknown> } | undefined {
  const seen = new Set<string>();
  const used = new Set<string>();
  return (release) => {
    if (release.catalog_number === null || release.catalog_number.trim() === '') return undefined;
    const key = normaliseCatalogNumber(release.catalog_number);
    if (seen.has(key)) return undefined;
    seen.add(key);
    const exported = exportRelease(release);
    return exported.ok ? { name: uniqueName(release, format, used), data: exported.data } : undefined;
  };
}

/**
 * Each release's file data (from `dataOf` when made already) and name, or why it is skipped;
 * names unique whatever the file system's case rules.
 */
function planFiles(releases: readonly ReleaseResource[], format: Format, dataOf: ReadonlyMap<number, Record<string, unknown>>): Planned[] {
  const holders = new Map<string, number[]>();
  for (const r of releases) {
    if (r.catalog_number === null || r.catalog_number.trim() === '') continue;
    const key = normaliseCatalogNumber(r.catalog_number);
    holders.set(key, [...(holders.get(key) ?? []), r.id]);
  }
  const used = new Set<string>();
  return releases.map((release, index): Planned => {
    const shared = release.catalog_number === null ? undefined : holders.get(normaliseCatalogNumber(release.catalog_number));
    if (shared !== undefined && shared.length > 1) {
      const others = shared.filter((id) => id !== release.id).join(', ');
      return {
        release,
        reason: `catalog number "${release.catalog_number!.trim()}" is also on release ${others}: apply could not tell them apart; give each its own and export again`,
      };
    }
    const made = dataOf.get(index);
    const exported = made === undefined ? exportRelease(release) : { ok: true as const, data: made };
    if (!exported.ok) return { release, reason: exported.reason };
    return { release, data: exported.data, name: uniqueName(release, format, used) };
  });
}

async function namesInFolder(dir: string): Promise<Set<string>> {
  try {
    return new Set((await readdir(dir)).map((n) => n.toLowerCase()));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return new Set();
    if ((err as NodeJS.ErrnoException).code === 'ENOTDIR') throw new UsageError(`--dir ${String(dir)}: not a folder`);
    throw err;
  }
}

function refuseOverwrite(shownDir: string, planned: readonly Planned[], taken: ReadonlySet<string>): void {
  const inTheWay = planned.filter((p) => p.name !== undefined && taken.has(p.name.toLowerCase())).map((p) => p.name!);
  if (inTheWay.length === 0) return;
  const named = inTheWay.slice(0, NAMED_IN_REFUSAL).join(', ');
  const more = inTheWay.length > NAMED_IN_REFUSAL ? ` and ${inTheWay.length - NAMED_IN_REFUSAL} more` : '';
  throw new UsageError(
    `${plural(inTheWay.length, 'release file')} already in ${shownDir}: ${named}${more}; nothing was written`,
    'pass --force to replace them, or export to another --dir',
  );
}

function report(ctx: Context, shownDir: string, planned: readonly Planned[]): void {
  const lines: ExportLine[] = planned.map((p) => ({
    release_id: p.release.id,
    catalog_number: p.release.catalog_number,
    file: p.name ?? null,
    outcome: p.name === undefined ? 'skipped' : 'written',
    reason: p.reason ?? null,
  }));
  const skipped = lines.filter((l) => l.outcome === 'skipped');
  if (ctx.globals.json) ctx.io.stdout.write(lines.map((l) => `${JSON.stringify(l)}\n`).join(''));
  else if (!ctx.io.stdoutIsTTY) ctx.io.stdout.write(lines.map(tsvLine).join(''));
  else for (const l of skipped) writeStderr(ctx, `skipped release ${l.release_id}${l.catalog_number ? ` (${l.catalog_number})` : ''}: ${l.reason}\n`);
  const written = lines.length - skipped.length;
  if (lines.length === 0) {
    note(ctx, 'no releases to export');
    return;
  }
  note(ctx, `wrote ${plural(written, 'release file')} to ${shownDir}${skipped.length > 0 ? `; ${skipped.length} skipped` : ''}`);
  if (skipped.length > 0) {
    throw new CliError(
      `${skipped.length} of ${plural(lines.length, 'release')} not exported: ${skipped.map((l) => l.catalog_number?.trim() || `release ${l.release_id}`).join(', ')}`,
      {
        exitCode: ExitCode.failure,
        code: 'export_incomplete',
        hint: 'each skipped release is listed with its reason; fix what it says and export it again',
      },
    );
  }
}

function tsvLine(l: ExportLine): string {
  return `${[l.release_id, l.catalog_number ?? '', l.outcome, l.file ?? '', tsvCell(l.reason ?? '')].join('\t')}\n`;
}
