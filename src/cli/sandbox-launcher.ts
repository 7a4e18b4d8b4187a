// How to start this very CLI again as the background sandbox (sandbox-background.ts): the real
// process knows (bin/reldist.js is argv[1]); commands run in tests do not, and stay in-process.
import { realpathSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';

export interface SandboxLauncher {
  execPath: string;
  args: string[];
  /** Tells two builds of the same version apart (development), so that a rebuilt CLI never talks to an old process. */
  build: string;
}

/** undefined when run some other way. The build is the bundle's modification time. */
export function currentLauncher(): SandboxLauncher | undefined {
  const script = process.argv[1];
  if (!script) return undefined;
  try {
    const main = join(dirname(realpathSync(script)), '..', 'dist', 'main.js');
    return { execPath: process.execPath, args: [script], build: String(statSync(main).mtimeMs) };
  } catch {
    return undefined;
  }
}
