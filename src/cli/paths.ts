// Where reldist keeps things, by platform convention (like env-paths, without the dependency):
//   config: $XDG_CONFIG_HOME/reldist or ~/.config/reldist; ~/Library/Preferences/reldist; %APPDATA%\reldist\Config
//   data:   $XDG_DATA_HOME/reldist or ~/.local/share/reldist; ~/Library/Application Support/reldist; %LOCALAPPDATA%\reldist\Data
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { Env } from './io.js';

const APP = 'reldist';

function home(env: Env): string {
  return env.HOME || env.USERPROFILE || homedir();
}

export function configDir(env: Env, platform: NodeJS.Platform = process.platform): string {
  if (env.RELDIST_CONFIG_DIR) return env.RELDIST_CONFIG_DIR;
  if (platform === 'darwin') return join(home(env), 'Library', 'Preferences', APP);
  if (platform === 'win32') return join(env.APPDATA || join(home(env), 'AppData', 'Roaming'), APP, 'Config');
  return join(env.XDG_CONFIG_HOME || join(home(env), '.config'), APP);
}

export function dataDir(env: Env, platform: NodeJS.Platform = process.platform): string {
  if (env.RELDIST_DATA_DIR) return env.RELDIST_DATA_DIR;
  if (platform === 'darwin') return join(home(env), 'Library', 'Application Support', APP);
  if (platform === 'win32') return join(env.LOCALAPPDATA || join(home(env), 'AppData', 'Local'), APP, 'Data');
  return join(env.XDG_DATA_HOME || join(home(env), '.local', 'share'), APP);
}
