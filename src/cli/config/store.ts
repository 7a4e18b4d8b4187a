// The config file: profiles (base URL + token) and a few non-secret settings, in one JSON file
// that only the user can read. Reads use plain fs (cheap: every command reads it); writes go
// through conf (atomic write, file mode 0600), which is loaded only by the commands that write.
import { chmodSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Env } from '../io.js';
import { configDir } from '../paths.js';
import { CliError } from '../errors.js';
import { lazy } from '../lazy.js';

export interface Profile {
  base_url?: string;
  token?: string;
  /** Who the token belongs to, as GET /me said at login (for `auth status`). */
  user?: string;
}

export interface ConfigData {
  /** Non-secret settings, see settings.ts. */
  settings?: Record<string, string>;
  profiles?: Record<string, Profile>;
}

export const CONFIG_NAME = 'config';

export function configFile(env: Env): string {
  return join(configDir(env), `${CONFIG_NAME}.json`);
}

export interface ReadResult {
  data: ConfigData;
  path: string;
  /** Set when the file was readable by others and has been narrowed to 0600. */
  fixedMode?: string;
}

/** Reads the config; a missing file is an empty config. Narrows a too-open file to 0600. */
export function readConfig(env: Env, platform: NodeJS.Platform = process.platform): ReadResult {
  const path = configFile(env);
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { data: {}, path };
    throw new CliError(`cannot read config file ${path}: ${(err as Error).message}`);
  }
  let fixedMode: string | undefined;
  if (platform !== 'win32') {
    const mode = statSync(path).mode & 0o777;
    if ((mode & 0o077) !== 0) {
      chmodSync(path, 0o600);
      fixedMode = mode.toString(8).padStart(4, '0');
    }
  }
  let data: unknown;
  try {
    data = text.trim() === '' ? {} : JSON.parse(text);
  } catch (err) {
    throw new CliError(`config file ${path} is not valid JSON: ${(err as Error).message}`, {
      hint: 'fix or delete the file, then run `reldist auth login` again',
    });
  }
  if (typeof data !== 'object' || data === null || Array.isArray(data)) {
    throw new CliError(`config file ${path} must hold a JSON object`, { hint: 'fix or delete the file' });
  }
  return fixedMode ? { data: data as ConfigData, path, fixedMode } : { data: data as ConfigData, path };
}

/** Changes the config atomically; the file is created 0600 in a 0700 directory. */
export async function updateConfig(env: Env, change: (data: ConfigData) => void): Promise<string> {
  const dir = configDir(env);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  // A folder that existed before (made by hand, or by another tool) may be open to others: the
  // atomic write puts a temporary copy of the tokens in it, so it is narrowed too.
  if (process.platform !== 'win32' && (statSync(dir).mode & 0o077) !== 0) chmodSync(dir, 0o700);
  const { default: Conf } = await lazy.conf();
  // Read through our own reader first so a too-open file is narrowed before we write to it.
  const current = readConfig(env).data;
  const store = new Conf<ConfigData>({ cwd: dir, configName: CONFIG_NAME, configFileMode: 0o600, projectSuffix: '' });
  const next = structuredClone(current);
  change(next);
  // Whole-object write: profile names may contain dots, which conf's key paths would split.
  store.store = next;
  if (process.platform !== 'win32') chmodSync(store.path, 0o600);
  return store.path;
}
