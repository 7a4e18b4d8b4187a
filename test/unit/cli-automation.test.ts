// What decides reldist's behaviour in automation, pure: which variables say CI, the sandbox rules
// of target resolution, the bound of a command under CI, and the line a retry prints.
import { describe, expect, it } from 'vitest';
import { CI_VARIABLES, DEFAULT_CI_TIMEOUT_MS, ciVariable } from '../../src/cli/config/ci.js';
import { resolveTarget } from '../../src/cli/config/resolve.js';
import { makeContext, withCiBound } from '../../src/cli/build-program.js';
import type { IO } from '../../src/cli/io.js';
import { PassThrough } from 'node:stream';
import { retryLine } from '../../src/cli/request-words.js';
import type { GlobalOptions } from '../../src/cli/context.js';
import type { RetryInfo } from '../../src/client/index.js';
import type { ConfigData } from '../../src/cli/config/store.js';

describe('ciVariable', () => {
  it('CI counts unless empty, 0 or false; the value is shown', () => {
    expect(ciVariable({})).toBeUndefined();
    expect(ciVariable({ CI: 'true' })).toBe('CI=true');
    expect(ciVariable({ CI: '1' })).toBe('CI=1');
    expect(ciVariable({ CI: 'woodpecker' })).toBe('CI=woodpecker');
    for (const off of ['', '0', 'false', 'FALSE', ' false ']) expect(ciVariable({ CI: off }), off).toBeUndefined();
  });

  it("every CI system's own variable counts, and CI=false does not hide it", () => {
    for (const name of CI_VARIABLES.filter((n) => n !== 'CI' && n !== 'CONTINUOUS_INTEGRATION')) {
      expect(ciVariable({ [name]: 'true' }), name).toBe(name);
      expect(ciVariable({ CI: 'false', [name]: 'x' }), name).toBe(name);
    }
    expect(ciVariable({ GITHUB_ACTIONS: 'false' })).toBeUndefined();
  });
});

describe('resolveTarget: the sandbox only when nothing is configured on a person machine, or by name', () => {
  const saved: ConfigData = { profiles: { default: { base_url: 'https://saved.example', token: 'rd_saved' } } };

  it('nothing configured: the sandbox, unless CI or an empty RELDIST_* variable says otherwise (exit 4)', () => {
    expect(resolveTarget({ flags: {}, env: {}, config: {} })).toMatchObject({ baseUrl: undefined, sandboxAsked: undefined });
    expect(() => resolveTarget({ flags: {}, env: { CI: 'true' }, config: {} })).toThrow(
      expect.objectContaining({ exitCode: 4, message: expect.stringContaining('this is CI (CI=true)') }),
    );
    expect(() => resolveTarget({ flags: {}, env: { RELDIST_SANDBOX_AUTO_REVIEW: '', RELDIST_DATA_DIR: '' }, config: {} })).toThrow(
      /RELDIST_DATA_DIR and RELDIST_SANDBOX_AUTO_REVIEW are set but empty: reldist does not fall back/,
    );
    // Something configured: CI changes nothing.
    expect(resolveTarget({ flags: {}, env: { CI: 'true' }, config: saved })).toMatchObject({ baseUrl: 'https://saved.example', token: 'rd_saved' });
  });

  it('an empty base URL, token or profile variable is exit 4 naming each, unless a flag stands in its place', () => {
    expect(() => resolveTarget({ flags: {}, env: { RELDIST_BASE_URL: '', RELDIST_TOKEN: '', RELDIST_PROFILE: '' }, config: saved })).toThrow(
      expect.objectContaining({ exitCode: 4, code: 'not_configured', message: 'RELDIST_BASE_URL, RELDIST_TOKEN and RELDIST_PROFILE are set but empty' }),
    );
    expect(() =>
      resolveTarget({
        flags: { baseUrl: 'https://x.example', profile: 'default' },
        env: { RELDIST_BASE_URL: '', RELDIST_TOKEN: '', RELDIST_PROFILE: '' },
        config: saved,
      }),
    ).toThrow(/^RELDIST_TOKEN is set but empty$/);
    expect(resolveTarget({ flags: { baseUrl: 'https://x.example' }, env: { RELDIST_BASE_URL: '', RELDIST_TOKEN: 'rd_x' }, config: {} })).toMatchObject({
      baseUrl: 'https://x.example',
      token: 'rd_x',
    });
  });

  it('--sandbox beats variables and saved profiles; RELDIST_SANDBOX=1 beats saved profiles and gives way to flags', () => {
    const env = { CI: 'true', RELDIST_BASE_URL: '', RELDIST_TOKEN: 'rd_env' };
    expect(resolveTarget({ flags: { sandbox: true }, env, config: saved })).toMatchObject({ baseUrl: undefined, token: undefined, sandboxAsked: 'flag' });
    expect(resolveTarget({ flags: {}, env: { CI: 'true', RELDIST_SANDBOX: 'true' }, config: saved })).toMatchObject({
      baseUrl: undefined,
      sandboxAsked: 'environment',
    });
    expect(resolveTarget({ flags: { baseUrl: 'https://x.example' }, env: { RELDIST_SANDBOX: '1', RELDIST_TOKEN: 'rd_x' }, config: {} })).toMatchObject({
      baseUrl: 'https://x.example',
      sandboxAsked: undefined,
    });
    expect(resolveTarget({ flags: {}, env: { RELDIST_SANDBOX: '0' }, config: saved })).toMatchObject({
      baseUrl: 'https://saved.example',
      sandboxAsked: undefined,
    });
    expect(() => resolveTarget({ flags: { sandbox: true, profile: 'default' }, env: {}, config: saved })).toThrow(
      /--sandbox and --profile both say where requests go/,
    );
    expect(() => resolveTarget({ flags: {}, env: { RELDIST_SANDBOX: '1', RELDIST_TOKEN: 'rd_x' }, config: {} })).toThrow(
      /RELDIST_SANDBOX=1 and RELDIST_TOKEN both/,
    );
    expect(() => resolveTarget({ flags: {}, env: { CI: 'true', RELDIST_SANDBOX: '' }, config: {} })).toThrow(/this is CI/);
  });
});

describe('withCiBound', () => {
  const globals: GlobalOptions = { json: false, debug: false, quiet: false, input: true, yes: false, color: undefined, profile: undefined, baseUrl: undefined };

  it('under CI and no --timeout: the documented default, saying which variable; --timeout (0 too) wins; serve is never bounded', () => {
    expect(withCiBound(globals, {}, { env: {} }).timeoutMs).toBeUndefined();
    expect(withCiBound(globals, {}, { env: { CI: 'true' } })).toMatchObject({ timeoutMs: DEFAULT_CI_TIMEOUT_MS, timeoutFromCi: 'CI=true' });
    expect(DEFAULT_CI_TIMEOUT_MS).toBe(30 * 60_000);
    const lifted = withCiBound({ ...globals, timeoutMs: 0 }, {}, { env: { CI: 'true' } });
    expect([lifted.timeoutMs, lifted.timeoutFromCi]).toEqual([0, undefined]);
    expect(withCiBound({ ...globals, timeoutMs: 7200_000 }, {}, { env: { BUILDKITE: 'true' } }).timeoutMs).toBe(7200_000);
    expect(withCiBound(globals, { runsUntilStopped: true }, { env: { CI: 'true' } }).timeoutMs).toBeUndefined();
  });
});

describe('prompting under CI', () => {
  const globals: GlobalOptions = { json: false, debug: false, quiet: false, input: true, yes: false, color: undefined, profile: undefined, baseUrl: undefined };
  const terminal = (): IO => ({
    stdin: new PassThrough(),
    stdout: new PassThrough(),
    stderr: new PassThrough(),
    stdinIsTTY: true,
    stdoutIsTTY: true,
    stderrIsTTY: true,
  });
  const canPrompt = (env: Record<string, string>) => makeContext({ io: terminal(), env }, globals).canPrompt;

  it('a terminal prompts; any CI variable that says CI (not only CI=true) stops it, as it stops the sandbox', () => {
    expect(canPrompt({})).toBe(true);
    expect(canPrompt({ CI: 'false' })).toBe(true);
    for (const env of [{ CI: 'true' } as Record<string, string>, { CI: '1' }, { CI: 'woodpecker' }, { GITLAB_CI: 'true' }, { CI: 'false', BUILDKITE: 'true' }])
      expect(canPrompt(env), JSON.stringify(env)).toBe(false);
  });
});

describe('retryLine', () => {
  const base: RetryInfo = { attempt: 1, maxRetries: 3, delayMs: 412, reason: '503', status: 503, request: { method: 'GET', endpointId: 'listReleases' } };

  it('what (in words), why, the wait and the attempt about to be made, of how many', () => {
    expect(retryLine(base)).toBe('retrying in 0.4s (attempt 2 of 4): list releases: the service answered 503 (unavailable)');
    expect(retryLine({ ...base, attempt: 3, delayMs: 2000, status: 429, reason: '429' })).toBe(
      'retrying in 2.0s (attempt 4 of 4): list releases: the service answered 429 (too many requests)',
    );
  });

  it('network causes in words with their code; an upload is named, never its address', () => {
    const { status: _status, ...network } = base;
    expect(retryLine({ ...network, reason: 'ETIMEDOUT', code: 'ETIMEDOUT' })).toMatch(/: list releases: no answer in time \(ETIMEDOUT\)$/);
    expect(retryLine({ ...network, reason: 'UND_ERR_SOCKET', code: 'UND_ERR_SOCKET', request: { method: 'PUT', endpointId: undefined } })).toBe(
      'retrying in 0.4s (attempt 2 of 4): receive an audio file: the connection was cut (UND_ERR_SOCKET)',
    );
  });
});
