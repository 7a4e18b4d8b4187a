// Which service and which token: flags > environment > saved profile > embedded sandbox.
// Pure, so the precedence is tested without a file system or a network.
import type { Env } from '../io.js';
import type { ConfigData } from './store.js';
import { UsageError } from '../errors.js';
import { normaliseBaseUrl } from './settings.js';

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
}

export interface TargetInput {
  flags: { profile?: string | undefined; baseUrl?: string | undefined };
  env: Env;
  config: ConfigData;
}

export function resolveTarget({ flags, env, config }: TargetInput): Target {
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
  return { profile, profileSource, profileExists: Boolean(saved), baseUrl, baseUrlSource, token, tokenSource };
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
