// The release files of `release apply`: arguments are files or folders (searched recursively for
// *.yaml, *.yml, *.json), each file loaded and checked, and every catalog number present and
// distinct. Everything is read before anything is written: any problem stops the whole run
// (exit 2) with every problem listed.
import { readdir, stat } from 'node:fs/promises';
import { extname, join, relative, resolve } from 'node:path';
import { describeError } from '../describe-error.js';
import { UsageError } from '../errors.js';
import { loadReleaseFile, type ReleasePlan } from '../release-file/load.js';
import { catalogNumberProblems } from './catalog-key.js';

export interface ApplyItem {
  /** The file as the user named it (or as found under a folder they named). */
  file: string;
  catalogNumber: string;
  plan: ReleasePlan;
}

const RELEASE_FILE_EXTENSIONS = new Set(['.yaml', '.yml', '.json']);
/** A bound on a folder walk, so a mistaken `/` argument ends. */
const MAX_FILES = 100_000;

/** Paths are relative to the working folder (as release files' audio paths are to the file). */
export async function collectItems(args: readonly string[], cwd = process.cwd()): Promise<ApplyItem[]> {
  if (args.length === 0) throw new UsageError('release apply: give at least one release file or folder', 'e.g. `reldist release apply releases/`');
  const problems: string[] = [];
  const files: string[] = [];
  const seen = new Set<string>();
  for (const arg of args) {
    for (const file of await expand(arg, cwd, problems)) {
      const abs = resolve(cwd, file);
      if (seen.has(abs)) continue;
      seen.add(abs);
      files.push(file);
    }
  }
  const items: ApplyItem[] = [];
  for (const file of files) {
    try {
      const plan = await loadReleaseFile(file, { flag: 'release file', cwd, allowStored: true });
      items.push({ file, catalogNumber: plan.release.catalog_number ?? '', plan });
    } catch (err) {
      const d = describeError(err, { debug: false });
      problems.push(...(d.details.length > 0 ? d.details : [d.message]));
    }
  }
  problems.push(...catalogNumberProblems(items.map((i) => ({ file: i.file, catalogNumber: i.catalogNumber }))));
  if (problems.length > 0) {
    throw new UsageError(
      problems.length === 1 ? problems[0]! : `${problems.length} problems in the release files; nothing was sent`,
      'fix the files named above (or leave them out) and run again',
      problems.length > 1 ? problems : undefined,
    );
  }
  return items;
}

async function expand(arg: string, cwd: string, problems: string[]): Promise<string[]> {
  const abs = resolve(cwd, arg);
  let isDir: boolean;
  try {
    isDir = (await stat(abs)).isDirectory();
  } catch {
    problems.push(`${arg}: no such file or folder`);
    return [];
  }
  if (!isDir) return [arg];
  const found: string[] = [];
  await walk(abs, found);
  if (found.length === 0) problems.push(`${arg}: no release files (*.yaml, *.yml, *.json) in this folder`);
  return found.sort().map((f) => join(arg, relative(abs, f)));
}

async function walk(dir: string, out: string[]): Promise<void> {
  const entries = await readdir(dir, { withFileTypes: true });
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const e of entries) {
    if (out.length >= MAX_FILES) return;
    if (e.name.startsWith('.') || e.name === 'node_modules') continue;
    const path = join(dir, e.name);
    if (e.isDirectory()) await walk(path, out);
    else if (e.isFile() && RELEASE_FILE_EXTENSIONS.has(extname(e.name).toLowerCase())) out.push(path);
  }
}
