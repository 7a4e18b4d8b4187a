// `completion` scripts load in their shells and cover every command; `openapi` prints the document.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanEnv, runBin } from './sandbox-helpers.js';

const home = mkdtempSync(join(tmpdir(), 'reldist-e2e-compl-'));
const env = cleanEnv({ HOME: home, RELDIST_CONFIG_DIR: join(home, 'config'), RELDIST_DATA_DIR: join(home, 'data') });
afterAll(() => rmSync(home, { recursive: true, force: true }));

function hasShell(name: string): boolean {
  return spawnSync('sh', ['-c', `command -v ${name}`]).status === 0;
}

/** Asks bash's completion function what it offers after `words`. */
function bashComplete(script: string, words: string[]): string[] {
  const file = join(home, 'compl.bash');
  writeFileSync(file, script);
  const line = words.map((w) => `'${w}'`).join(' ');
  const cmd = `source '${file}'; COMP_WORDS=(${line}); COMP_CWORD=${words.length - 1}; _reldist; printf '%s\\n' "\${COMPREPLY[@]}"`;
  const r = spawnSync('bash', ['-c', cmd], { encoding: 'utf8' });
  expect(r.stderr).toBe('');
  return r.stdout.split('\n').filter(Boolean);
}

describe('reldist completion', () => {
  it.skipIf(!hasShell('bash'))('bash: commands, sub-commands, flags, api methods and paths', async () => {
    const r = await runBin(['completion', 'bash'], env);
    expect(r.code).toBe(0);
    expect(bashComplete(r.stdout, ['reldist', ''])).toEqual(expect.arrayContaining(['auth', 'config', 'api', 'openapi', 'completion', '--json']));
    expect(bashComplete(r.stdout, ['reldist', 'auth', ''])).toEqual(expect.arrayContaining(['login', 'status', 'logout']));
    expect(bashComplete(r.stdout, ['reldist', 'auth', 'login', '--w'])).toEqual(['--with-token']);
    expect(bashComplete(r.stdout, ['reldist', 'api', 'P'])).toEqual(['POST', 'PUT', 'PATCH']);
    expect(bashComplete(r.stdout, ['reldist', 'api', 'GET', '/releases/{releaseId}/tr'])).toEqual(expect.arrayContaining(['/releases/{releaseId}/tracks']));
    expect(bashComplete(r.stdout, ['reldist', '--profile', 'x', 'con'])).toEqual(['config']);
  });

  it.skipIf(!hasShell('bash'))("bash: a flag with a fixed set offers its values (the contract's), not file names", async () => {
    const r = await runBin(['completion', 'bash'], env);
    expect(bashComplete(r.stdout, ['reldist', 'release', 'list', '--status', ''])).toEqual([
      'draft',
      'in_review',
      'approved',
      'rejected',
      'delivered',
      'live',
      'taken_down',
    ]);
    expect(bashComplete(r.stdout, ['reldist', 'release', 'list', '--type', 'e'])).toEqual(['ep']);
    expect(bashComplete(r.stdout, ['reldist', 'release', 'watch', '42', '--for', ''])).toEqual(['reviewed', 'approved', 'live']);
    expect(bashComplete(r.stdout, ['reldist', 'release', 'edit', '42', '--price-tier', ''])).toEqual(['budget', 'mid', 'front', 'premium']);
    expect(bashComplete(r.stdout, ['reldist', 'track', 'edit', '42', '1', '--explicit', 'c'])).toEqual(['clean']);
    expect(bashComplete(r.stdout, ['reldist', 'webhook', 'deliveries', '3', '--status', 'f'])).toEqual(['failed']);
    // The same flag name elsewhere takes other values; a flag without a set still completes files.
    expect(bashComplete(r.stdout, ['reldist', 'release', 'create', '--file', 'package.j'])).toEqual(['package.json']);
    // A hidden other name (--notes for --message) is not offered.
    expect(bashComplete(r.stdout, ['reldist', 'release', 'submit', '--'])).toEqual(expect.arrayContaining(['--message', '--dry-run']));
    expect(bashComplete(r.stdout, ['reldist', 'release', 'submit', '--'])).not.toContain('--notes');
  });

  it('zsh and fish: the same value sets, per command and flag', async () => {
    const zsh = (await runBin(['completion', 'zsh'], env)).stdout;
    expect(zsh).toContain("'release/list --status') values=(draft in_review approved rejected delivered live taken_down); compadd -a values; return ;;");
    expect(zsh).toContain("'webhook/deliveries --status') values=(pending succeeded failed); compadd -a values; return ;;");
    const fish = (await runBin(['completion', 'fish'], env)).stdout;
    expect(fish).toContain("complete -c reldist -n '__reldist_at \\'release/watch\\'' -l for -x -a 'reviewed approved live'");
    expect(fish).not.toContain('-l notes');
  });

  it('zsh and fish scripts are produced and parse', async () => {
    for (const shell of ['zsh', 'fish'] as const) {
      const r = await runBin(['completion', shell], env);
      expect(r.code).toBe(0);
      expect(r.stdout).toContain('with-token');
      if (hasShell(shell)) {
        const file = join(home, `compl.${shell}`);
        writeFileSync(file, r.stdout);
        const check = spawnSync(shell, ['-n', file], { encoding: 'utf8' });
        expect(check.status, check.stderr).toBe(0);
      }
    }
  });

  it('rejects an unknown shell with a usage error', async () => {
    const r = await runBin(['completion', 'powershell'], env);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/bash, zsh or fish/);
  });
});

describe('reldist openapi', () => {
  it('prints an OpenAPI 3.1 document with the endpoints', async () => {
    const r = await runBin(['openapi'], env);
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.stdout);
    expect(doc.openapi).toMatch(/^3\.1/);
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(['/me', '/releases', '/releases/{releaseId}']));
  });

  it('prints the same document as YAML with --format yaml (the built binary: the bundle loads yaml)', async () => {
    const [json, yaml] = await Promise.all([runBin(['openapi'], env), runBin(['openapi', '--format', 'yaml'], env)]);
    expect([yaml.code, yaml.stderr]).toEqual([0, '']);
    const { parse } = await import('yaml');
    expect(parse(yaml.stdout)).toEqual(JSON.parse(json.stdout));
  });
});
