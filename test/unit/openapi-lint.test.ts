// Runs Redocly's linter on the checked-in openapi.json with redocly.yaml, offline: telemetry and
// the update check are switched off, so the run never touches the network.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../', import.meta.url));

describe('redocly lint', () => {
  it('passes openapi.json with no errors and no warnings', () => {
    const run = spawnSync(process.execPath, ['node_modules/@redocly/cli/bin/cli.js', 'lint', 'openapi.json', '--config', 'redocly.yaml', '--format', 'json'], {
      cwd: root,
      encoding: 'utf8',
      timeout: 60_000,
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' },
    });
    expect(run.error).toBeUndefined();
    const report = JSON.parse(run.stdout) as { totals: { errors: number; warnings: number }; problems: { ruleId: string; message: string }[] };
    const problems = report.problems.map((p) => `${p.ruleId}: ${p.message}`);
    expect(report.totals, problems.join('\n')).toMatchObject({ errors: 0, warnings: 0 });
    expect(run.status, run.stderr).toBe(0);
  });
});
