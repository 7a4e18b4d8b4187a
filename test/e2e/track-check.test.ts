// `reldist track check` from the built binary with no service configured: it answers offline and
// never starts the embedded sandbox (no data folder appears). Needs `npm run build` first.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { cleanEnv, runBin } from './sandbox-helpers.js';

const home = mkdtempSync(join(tmpdir(), 'reldist-check-e2e-'));
const dataDir = join(home, 'data');
afterAll(() => rmSync(home, { recursive: true, force: true }));

it('checks files offline without starting the sandbox', async () => {
  const r = await runBin(
    ['track', 'check', 'examples/first-release/audio/first-light.flac', '--json'],
    cleanEnv({ HOME: home, RELDIST_DATA_DIR: dataDir, RELDIST_CONFIG_DIR: join(home, 'config') }),
  );
  expect(r.code, r.stderr).toBe(0);
  expect(JSON.parse(r.stdout)).toMatchObject([{ format: 'FLAC', channels: 2, sample_rate: 44_100, bit_depth: 16, accepted: true, errors: [] }]);
  expect(r.stderr).toBe('');
  expect(existsSync(dataDir)).toBe(false);
});
