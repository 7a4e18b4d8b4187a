import { mkdtempSync, rmSync, statSync, writeFileSync, mkdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { resolveTarget } from '../../src/cli/config/resolve.js';
import { readConfig, updateConfig, configFile } from '../../src/cli/config/store.js';
import { normaliseBaseUrl, settingSpec } from '../../src/cli/config/settings.js';
import { configDir, dataDir } from '../../src/cli/paths.js';
import type { ConfigData } from '../../src/cli/config/store.js';

const config: ConfigData = {
  settings: { profile: 'work' },
  profiles: {
    default: { base_url: 'https://default.example', token: 'rd_default' },
    work: { base_url: 'https://work.example', token: 'rd_work' },
    ci: { base_url: 'https://ci.example', token: 'rd_ci' },
  },
};

describe('resolveTarget precedence: flags > env > profile > sandbox', () => {
  it('uses nothing when nothing is configured: the sandbox', () => {
    const t = resolveTarget({ flags: {}, env: {}, config: {} });
    expect(t).toMatchObject({ profile: 'default', profileSource: 'default', baseUrl: undefined, token: undefined, profileExists: false });
  });

  it('takes the profile named by the `profile` setting when neither flag nor env names one', () => {
    const t = resolveTarget({ flags: {}, env: {}, config });
    expect(t).toMatchObject({
      profile: 'work',
      profileSource: 'config',
      baseUrl: 'https://work.example',
      baseUrlSource: 'profile',
      token: 'rd_work',
      tokenSource: 'profile',
    });
  });

  it('RELDIST_PROFILE beats the setting; --profile beats RELDIST_PROFILE', () => {
    expect(resolveTarget({ flags: {}, env: { RELDIST_PROFILE: 'ci' }, config })).toMatchObject({ profile: 'ci', profileSource: 'environment', token: 'rd_ci' });
    expect(resolveTarget({ flags: { profile: 'default' }, env: { RELDIST_PROFILE: 'ci' }, config })).toMatchObject({
      profile: 'default',
      profileSource: 'flag',
      token: 'rd_default',
    });
  });

  it('env base URL and token beat the profile; --base-url beats RELDIST_BASE_URL', () => {
    const env = { RELDIST_BASE_URL: 'https://env.example/', RELDIST_TOKEN: 'rd_env' };
    expect(resolveTarget({ flags: {}, env, config })).toMatchObject({
      baseUrl: 'https://env.example',
      baseUrlSource: 'environment',
      token: 'rd_env',
      tokenSource: 'environment',
    });
    expect(resolveTarget({ flags: { baseUrl: 'http://127.0.0.1:9' }, env, config })).toMatchObject({
      baseUrl: 'http://127.0.0.1:9',
      baseUrlSource: 'flag',
      token: 'rd_env',
    });
  });

  it('never sends a saved token to another service chosen by flag or env', () => {
    const t = resolveTarget({ flags: { baseUrl: 'https://elsewhere.example' }, env: {}, config });
    expect(t.token).toBeUndefined();
    expect(t.tokenSource).toBeUndefined();
    const same = resolveTarget({ flags: { baseUrl: 'https://work.example/' }, env: {}, config });
    expect(same.token).toBe('rd_work');
  });

  it('RELDIST_TOKEN alone resolves no base URL (openSession then refuses it rather than start the sandbox)', () => {
    expect(resolveTarget({ flags: {}, env: { RELDIST_TOKEN: 'rd_x' }, config: {} })).toMatchObject({
      baseUrl: undefined,
      token: 'rd_x',
      tokenSource: 'environment',
    });
  });

  it('a profile named by flag or env that does not exist is a usage error naming it', () => {
    expect(() => resolveTarget({ flags: { profile: 'nope' }, env: {}, config })).toThrow(/no profile named "nope"/);
    expect(() => resolveTarget({ flags: {}, env: { RELDIST_PROFILE: 'nope' }, config })).toThrow(/no profile named "nope" \(from RELDIST_PROFILE\)/);
  });

  it('a `profile` setting naming a missing profile is a usage error too, never the sandbox', () => {
    expect(() => resolveTarget({ flags: {}, env: {}, config: { settings: { profile: 'gone' } } })).toThrow(
      /no profile named "gone" \(from the `profile` setting\)/,
    );
  });

  it('rejects a base URL that is not http(s) or that carries credentials', () => {
    expect(() => resolveTarget({ flags: { baseUrl: 'ftp://x' }, env: {}, config: {} })).toThrow(/--base-url/);
    expect(() => resolveTarget({ flags: {}, env: { RELDIST_BASE_URL: 'nonsense' }, config: {} })).toThrow(/RELDIST_BASE_URL/);
    expect(() => normaliseBaseUrl('https://u:p@x.example')).toThrow(/credentials/);
  });
});

describe('settings', () => {
  it('parses and rejects values with the key in the message', () => {
    expect(settingSpec('timeout').parse('60')).toBe('60');
    expect(() => settingSpec('timeout').parse('0')).toThrow(/timeout/);
    expect(() => settingSpec('token')).toThrow(/unknown setting "token"/);
    expect(settingSpec('base_url').parse('https://x.example/')).toBe('https://x.example');
  });
});

describe('paths', () => {
  it('follows platform conventions and the RELDIST_* overrides', () => {
    expect(dataDir({ HOME: '/h' }, 'linux')).toBe('/h/.local/share/reldist');
    expect(dataDir({ HOME: '/h', XDG_DATA_HOME: '/x' }, 'linux')).toBe('/x/reldist');
    expect(dataDir({ HOME: '/h' }, 'darwin')).toBe('/h/Library/Application Support/reldist');
    expect(dataDir({ HOME: '/h', RELDIST_DATA_DIR: '/d' }, 'linux')).toBe('/d');
    expect(configDir({ HOME: '/h' }, 'linux')).toBe('/h/.config/reldist');
    expect(configDir({ HOME: '/h', XDG_CONFIG_HOME: '/c' }, 'linux')).toBe('/c/reldist');
  });
});

describe('config file', () => {
  let dir: string;
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('is written 0600 and read back; a too-open file is narrowed on read', async () => {
    dir = mkdtempSync(join(tmpdir(), 'reldist-cfg-'));
    const env = { RELDIST_CONFIG_DIR: join(dir, 'cfg') };
    expect(readConfig(env).data).toEqual({});
    const path = await updateConfig(env, (c) => {
      c.profiles = { 'my.profile': { base_url: 'https://x.example', token: 'rd_secret' } };
    });
    expect(path).toBe(configFile(env));
    if (process.platform !== 'win32') expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(readConfig(env).data.profiles?.['my.profile']?.token).toBe('rd_secret');
    if (process.platform !== 'win32') {
      const { chmodSync } = await import('node:fs');
      chmodSync(path, 0o644);
      const r = readConfig(env);
      expect(r.fixedMode).toBe('0644');
      expect(statSync(path).mode & 0o777).toBe(0o600);
    }
  });

  it.skipIf(process.platform === 'win32')('keeps its folder 0700, also one that existed with wider permissions', async () => {
    dir = mkdtempSync(join(tmpdir(), 'reldist-cfg-'));
    const fresh = { RELDIST_CONFIG_DIR: join(dir, 'fresh') };
    await updateConfig(fresh, (c) => void (c.settings = { timeout: '60' }));
    expect(statSync(join(dir, 'fresh')).mode & 0o777).toBe(0o700);
    const { chmodSync } = await import('node:fs');
    const old = join(dir, 'old');
    mkdirSync(old, { mode: 0o755 });
    chmodSync(old, 0o755);
    await updateConfig({ RELDIST_CONFIG_DIR: old }, (c) => void (c.profiles = { default: { token: 'rd_secret' } }));
    expect(statSync(old).mode & 0o777).toBe(0o700);
    expect(statSync(join(old, 'config.json')).mode & 0o777).toBe(0o600);
  });

  it('says which file is broken when it is not JSON', () => {
    dir = mkdtempSync(join(tmpdir(), 'reldist-cfg-'));
    mkdirSync(join(dir, 'cfg'));
    writeFileSync(join(dir, 'cfg', 'config.json'), '{nope', { mode: 0o600 });
    expect(() => readConfig({ RELDIST_CONFIG_DIR: join(dir, 'cfg') })).toThrow(/config\.json is not valid JSON/);
    expect(readFileSync(join(dir, 'cfg', 'config.json'), 'utf8')).toBe('{nope');
  });
});
