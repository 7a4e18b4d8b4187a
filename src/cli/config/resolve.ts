// Which service and which token: flags > environment > saved profile > embedded sandbox.
// Pure, so the precedence is tested without a file system or a network.
import type { Env } from '../io.js';
import type { ConfigData } from './store.js';
import { CliError, ExitCode, UsageError } from '../errors.js';
import { normaliseBaseUrl } from './settings.js';
import { ciVariable } from './ci.js';

export type Source = 'flag' | 'environment' | 'profile' | 'config' | 'default' | 'sandbox';

export interface Target {
  profile: string;
  profileSource: 'flag' | 'environment' | 'config' | 'default';
  /** Whether the named profile exists in the config file. */
  profileExists: boolean;
  /** undefined: nothing configured, use the embedded sandbox. */
  baseUrl: string | undefined;
  baseUrlSource: Source | undefined;
  token: string | undefined;
  tokenSource: 'environment' | 'profile' | undefined;
  /** The sandbox was asked for by name (--sandbox, RELDIST_SANDBOX=1), not fallen back to. */
  sandboxAsked: 'flag' | 'environment' | undefined;
}

export interface TargetInput {
  flags: { profile?: string | undefined; baseUrl?: string | undefined; sandbox?: boolean | undefined };
  env: Env;
  config: ConfigData;
}

export function resolveTarget({ flags, env, config }: TargetInput): Target {
  const asked = sandboxAsked(flags, env);
  if (asked)
    return {
      profile: 'default',
      profileSource: 'default',
      profileExists: false,
      baseUrl: undefined,
      baseUrlSource: undefined,
      token: undefined,
      tokenSource: undefined,
      sandboxAsked: asked,
    };
  refuseEmpty(flags, env);
  const named = flags.profile ?? (env.RELDIST_PROFILE || undefined);
  const profileSource = flags.profile ? 'flag' : env.RELDIST_PROFILE ? 'environment' : config.settings?.profile ? 'config' : 'default';
  const profile = named ?? config.settings?.profile ?? 'default';
  const saved = config.profiles?.[profile];
  if (profileSource !== 'default' && !saved) {
    // A named profile that is missing is a typo or a logout: never a reason to fall back to the sandbox.
    const namedBy = profileSource === 'flag' ? '--profile' : profileSource === 'environment' ? 'RELDIST_PROFILE' : 'the `profile` setting';
    const otherwise = profileSource === 'config' ? '`reldist config unset profile`' : '`reldist auth status`';
    throw new UsageError(`no profile named "${profile}" (from ${namedBy})`, `run \`reldist auth login --profile ${profile}\`, or see ${otherwise}`);
  }

  let baseUrl: string | undefined;
  let baseUrlSource: Source | undefined;
  if (flags.baseUrl) {
    baseUrl = normaliseBaseUrl(flags.baseUrl, '--base-url');
    baseUrlSource = 'flag';
  } else if (env.RELDIST_BASE_URL) {
    baseUrl = normaliseBaseUrl(env.RELDIST_BASE_URL, 'RELDIST_BASE_URL');
    baseUrlSource = 'environment';
  } else if (saved?.base_url) {
    baseUrl = saved.base_url;
    baseUrlSource = 'profile';
  }

  let token: string | undefined;
  let tokenSource: Target['tokenSource'];
  if (env.RELDIST_TOKEN) {
    token = env.RELDIST_TOKEN;
    tokenSource = 'environment';
  } else if (saved?.token && (baseUrl === undefined || sameService(baseUrl, saved.base_url))) {
    // A saved token goes only to the service it was issued by, never to another --base-url.
    token = saved.token;
    tokenSource = 'profile';
    if (baseUrl === undefined && saved.base_url) {
      baseUrl = saved.base_url;
      baseUrlSource = 'profile';
    }
  }
  // Nothing configured: the sandbox stands in, but never in CI nor beside an empty variable.
  if (baseUrl === undefined && token === undefined) refuseFallback(env);
  return { profile, profileSource, profileExists: Boolean(saved), baseUrl, baseUrlSource, token, tokenSource, sandboxAsked: undefined };
}

const SANDBOX_VARIABLE = 'RELDIST_SANDBOX';
/** In the hint of every refusal below: the way out that is not a service. */
const BY_NAME = 'for the local sandbox on purpose, pass --sandbox or set RELDIST_SANDBOX=1';

/**
 * --sandbox, or RELDIST_SANDBOX=1: flags beat the environment, so the flag wins over any variable
 * and the variable gives way to --base-url or --profile; two answers at one level are an error.
 */
function sandboxAsked(flags: TargetInput['flags'], env: Env): Target['sandboxAsked'] {
  if (flags.sandbox) {
    const other = flags.baseUrl ? '--base-url' : flags.profile ? '--profile' : undefined;
    if (other) throw new UsageError(`--sandbox and ${other} both say where requests go`, `drop one of them`);
    return 'flag';
  }
  if (!sandboxVariableOn(env) || flags.baseUrl || flags.profile) return undefined;
  const other = ['RELDIST_BASE_URL', 'RELDIST_TOKEN', 'RELDIST_PROFILE'].find((k) => env[k]?.trim());
  if (other) throw new UsageError(`${SANDBOX_VARIABLE}=1 and ${other} both say where requests go`, `unset one of them`);
  return 'environment';
}

function sandboxVariableOn(env: Env): boolean {
  const v = env[SANDBOX_VARIABLE]?.trim().toLowerCase();
  // Empty: refused with the other empty variables (refuseFallback), not read as "no".
  if (v === undefined || v === '' || v === '0' || v === 'false') return false;
  if (v === '1' || v === 'true') return true;
  throw new UsageError(`${SANDBOX_VARIABLE}: "${env[SANDBOX_VARIABLE]}" is not 1 or 0`, 'RELDIST_SANDBOX=1 uses the local sandbox; unset it otherwise');
}

/**
 * A variable that is set but empty is what a CI runner gives for a secret the job cannot see (a
 * pull request from a fork, a renamed secret): never read as "not set". Only those this command
 * would read: a flag in their place makes them irrelevant.
 */
function refuseEmpty(flags: TargetInput['flags'], env: Env): void {
  const empty = [...(flags.baseUrl ? [] : ['RELDIST_BASE_URL']), 'RELDIST_TOKEN', ...(flags.profile ? [] : ['RELDIST_PROFILE'])].filter(
    (k) => env[k] !== undefined && env[k]!.trim() === '',
  );
  if (empty.length === 0) return;
  throw new CliError(`${listed(empty)} ${empty.length > 1 ? 'are' : 'is'} set but empty`, {
    exitCode: ExitCode.auth,
    code: 'not_configured',
    hint: `an empty variable is often a CI secret the job cannot see (a pull request from a fork, a renamed secret): give it a value, or unset it; ${BY_NAME}`,
  });
}

/** The embedded sandbox stands in for nothing configured only on a person's machine: not under CI, not beside an empty RELDIST_* variable. */
function refuseFallback(env: Env): void {
  const ci = ciVariable(env);
  const empty = Object.keys(env)
    .filter((k) => k.startsWith('RELDIST_') && env[k]?.trim() === '')
    .sort();
  if (!ci && empty.length === 0) return;
  const why = ci ? `this is CI (${ci})` : `${listed(empty)} ${empty.length > 1 ? 'are' : 'is'} set but empty`;
  throw new CliError(`no service configured and ${why}: reldist does not fall back to the local sandbox`, {
    exitCode: ExitCode.auth,
    code: 'not_configured',
    hint: `set RELDIST_BASE_URL and RELDIST_TOKEN (or run \`reldist auth login\`); ${BY_NAME}`,
  });
}

function listed(names: readonly string[]): string {
  return names.length <= 1 ? (names[0] ?? '') : `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;
}

function sameService(a: string, b: string | undefined): boolean {
  return b !== undefined && a.replace(/\/+$/, '') === b.replace(/\/+$/, '');
}

/** Where a command's requests go, once resolved (session.ts), possibly to the embedded sandbox. */
export interface Session extends Omit<Target, 'baseUrl' | 'tokenSource'> {
  baseUrl: string;
  /** Set when the embedded sandbox serves this command. */
  sandbox: { dataDir: string } | undefined;
  tokenSource: Target['tokenSource'] | 'sandbox';
}
