// `release export [<release>… | --all] --dir DIR`: releases of the service written as release
// files (release-file/export.ts says what goes in one) that `release apply DIR --plan` sees as
// unchanged. Everything is read and every file name decided before the first file is written, so
// a refusal (files in the way) writes nothing; each file is written whole or not at all (a
// temporary file renamed into place).
import { mkdir, readdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { ReleaseResource } from '../../../contract/index.js';
import { paging } from '../../../contract/routes.js';
import { normaliseCatalogNumber } from '../../apply/catalog-key.js';
import { runPool } from '../../apply/pool.js';
import type { Context } from '../../context.js';
import { CliError, ExitCode, UsageError } from '../../errors.js';
import { note, plural, progress, tsvCell, writeStderr } from '../../output/index.js';
import { exportFileName, exportRelease } from '../../release-file/export.js';
import { toYaml } from '../../release-file/yaml-emit.js';
import { writeWhole } from '../../release-file/write-whole.js';
import { choiceOption } from '../../shared/args.js';
import { resolveReleaseRefs } from '../../shared/release-ref.js';
import { STATUSES, type ExportOpts } from './spec.js';

const FORMATS = ['yaml', 'json'] as const;
/** Files written at once: enough to keep the disk busy, few enough not to flood it. */
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

  const releases = opts.all ? await listAll(ctx, status) : await readNamed(ctx, args);
  const planned = planFiles(releases, format);
  const taken = await namesInFolder(dir);
  if (!opts.force) refuseOverwrite(opts.dir, planned, taken);

  await mkdir(dir, { recursive: true });
  const bar = progress(ctx, 'Writing release files', { unit: 'items', total: planned.length });
  let written = 0;
  await runPool(
    planned,
    WRITES_IN_FLIGHT,
    async (p) => {
      if (p.name === undefined) return;
      await writeWhole(join(dir, p.name), format === 'json' ? `${JSON.stringify(p.data, null, 2)}\n` : HEADER + toYaml(p.data!));
      bar.update(++written, planned.length);
    },
    ctx.signal,
  );
  bar.done();
  // Stopped (--timeout, Ctrl-C): the files written are whole; the stop is the answer, not a tally.
  ctx.signal.throwIfAborted();
  report(ctx, opts.dir, planned);
}

const HEADER = '# A release file (docs/release-file.md), written by reldist release export.\n';

async function listAll(ctx: Context, status: ReleaseResource['status'] | undefined): Promise<ReleaseResource[]> {
  const client = await ctx.services.client();
  const bar = progress(ctx, 'Reading releases', { unit: 'items' });
  const out: ReleaseResource[] = [];
  // Whole releases, tracks included, a page of the largest size per request.
  const pages = client.pages(
    'listReleases',
    { query: { ...(status ? { status } : {}), include: 'tracks', perPage: paging.maxPerPage } },
    { onPage: (page, total) => bar.update(page, total), ahead: 2 },
  );
  for await (const page of pages) out.push(...page);
  bar.done();
  return out;
}

async function readNamed(ctx: Context, args: readonly string[]): Promise<ReleaseResource[]> {
  const client = await ctx.services.client();
  const refs = await resolveReleaseRefs(client, args, ctx.signal);
  const out: ReleaseResource[] = [];
  for (const ref of refs) out.push(await client.call('getRelease', { params: { releaseId: ref.id } }));
  return out;
}

/** Each release's file data and name, or why it is skipped; names unique whatever the file system's case rules. */
function planFiles(releases: readonly ReleaseResource[], format: (typeof FORMATS)[number]): Planned[] {
  const holders = new Map<string, number[]>();
  for (const r of releases) {
    if (r.catalog_number === null || r.catalog_number.trim() === '') continue;
    const key = normaliseCatalogNumber(r.catalog_number);
    holders.set(key, [...(holders.get(key) ?? []), r.id]);
  }
  const used = new Set<string>();
  return releases.map((release): Planned => {
    const shared = release.catalog_number === null ? undefined : holders.get(normaliseCatalogNumber(release.catalog_number));
    if (shared !== undefined && shared.length > 1) {
      const others = shared.filter((id) => id !== release.id).join(', ');
      return {
        release,
        reason: `catalog number "${release.catalog_number!.trim()}" is also on release ${others}: apply could not tell them apart; give each its own and export again`,
      };
    }
    const exported = exportRelease(release);
    if (!exported.ok) return { release, reason: exported.reason };
    let name = exportFileName(release.catalog_number!, format);
    // Two catalog numbers that differ only in characters a file name cannot keep ("NLR/1", "NLR_1").
    if (used.has(name.toLowerCase())) name = name.replace(/\.[a-z]+$/, `-${release.id}$&`);
    used.add(name.toLowerCase());
    return { release, data: exported.data, name };
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
