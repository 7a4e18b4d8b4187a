// Whether this command runs under a CI system: there, reldist never falls back to the embedded
// sandbox (a job whose secrets it cannot see must fail, not "succeed" locally) and every command
// is bounded by DEFAULT_CI_TIMEOUT_MS. Pure: the environment is passed in.
import type { Env } from '../io.js';

/**
 * The generic variables first, then what each CI system sets on its own (its own name, in case a
 * job clears CI). The generic ones and the vendors' are read alike: set, and not '', '0' or 'false'.
 */
export const CI_VARIABLES = [
  'CI', // GitHub Actions, GitLab, CircleCI, Travis, Buildkite, Bitbucket, Drone, Woodpecker, Cirrus, AppVeyor…
  'CONTINUOUS_INTEGRATION', // Travis, Cirrus
  'GITHUB_ACTIONS',
  'GITLAB_CI',
  'BUILDKITE',
  'CIRCLECI',
  'TRAVIS',
  'JENKINS_URL',
  'HUDSON_URL',
  'TF_BUILD', // Azure Pipelines
  'TEAMCITY_VERSION',
  'BITBUCKET_BUILD_NUMBER',
  'CODEBUILD_BUILD_ID', // AWS CodeBuild
  'DRONE',
  'CIRRUS_CI',
  'APPVEYOR',
  'SEMAPHORE',
  'BITRISE_IO',
  'BUDDY_WORKSPACE_ID',
  'CF_BUILD_ID', // Codefresh
  'GO_PIPELINE_LABEL', // GoCD
  'HARNESS_BUILD_ID',
] as const;

/** Under CI and no --timeout, a command ends with exit 7 after this long (`--timeout 0`: never). */
export const DEFAULT_CI_TIMEOUT_MS = 30 * 60_000;

/**
 * The variable that says this is CI, in words for an error line (`CI=true`, `GITHUB_ACTIONS`), or
 * undefined. `CI=false` (or 0) does not count by itself, but unlike some libraries it does not
 * hide a CI system's own variable: builds set CI=false to stop warnings failing them, and such a
 * job must still never submit to a sandbox.
 */
export function ciVariable(env: Env): string | undefined {
  for (const name of CI_VARIABLES) {
    const v = env[name];
    if (v === undefined || !isOn(v)) continue;
    // The value of CI says which system when it is not plain `true` (Woodpecker: CI=woodpecker).
    return name === 'CI' || name === 'CONTINUOUS_INTEGRATION' ? `${name}=${shortValue(v)}` : name;
  }
  return undefined;
}

function isOn(value: string): boolean {
  const v = value.trim().toLowerCase();
  return v !== '' && v !== '0' && v !== 'false';
}

/** A value in a message: short, one line (it is the user's own variable, not a secret). */
function shortValue(v: string): string {
  const one = v.replace(/\s+/g, ' ').trim();
  return one.length > 20 ? `${one.slice(0, 20)}…` : one;
}
