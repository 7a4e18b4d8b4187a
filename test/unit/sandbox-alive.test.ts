// isAlive, which decides whether a background sandbox's state or lock file is stale: a killed
// process left a zombie (its parent not reaping it, as a container's init may not) is gone.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { describe, expect, it } from 'vitest';
import { isAlive } from '../../src/cli/sandbox-state.js';
import { until } from '../helpers/processes.js';

const state = (pid: number) => {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
    return stat.charAt(stat.lastIndexOf(')') + 2);
  } catch {
    return '';
  }
};

describe('isAlive', () => {
  it('this process is alive; a pid that exited is not', async () => {
    expect(isAlive(process.pid)).toBe(true);
    const child = spawn('true');
    await new Promise((r) => child.once('exit', r));
    expect(isAlive(child.pid!)).toBe(false);
  });

  it.runIf(process.platform === 'linux')('a zombie is not alive', async () => {
    // The shell starts a short sleep and becomes a long one, which never reaps it: a zombie.
    const parent = spawn('sh', ['-c', 'sleep 0.05 & echo $!; exec sleep 30'], { stdio: ['ignore', 'pipe', 'ignore'] });
    try {
      const line = await new Promise<string>((resolve) => createInterface({ input: parent.stdout! }).once('line', resolve));
      const pid = Number(line);
      await until('the short sleep to become a zombie', () => state(pid) === 'Z', 5000);
      expect(isAlive(pid)).toBe(false);
      expect(isAlive(parent.pid!)).toBe(true);
    } finally {
      parent.kill('SIGKILL');
    }
  });
});
