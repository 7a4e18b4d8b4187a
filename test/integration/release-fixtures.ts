// The releases the `release create` tests leave behind, made the same way, so that the files
// testing the other release verbs start from them (their goldens show these releases).
import { expect } from 'vitest';
import type { RunResult } from './cli-harness.js';

/** Flags of a complete draft single. */
export const draftFlags = [
  '--type',
  'single',
  '--title',
  'Northern Sky',
  '--artist',
  'Nina Vale',
  '--label',
  'Northern Lights Records',
  '--genre',
  'Pop',
  '--language',
  'en',
];

/**
 * Releases 1–3: drafts from flags (2 with a version, 3 with a ℗ line and explicit clean);
 * 4: the example release file, submitted; 5: the example release file again (catalog number
 * NLR-0002: the service keeps one release per catalog number), a draft.
 */
export async function createReleases(run: (argv: string[]) => Promise<RunResult>): Promise<void> {
  const example = 'examples/first-release/release.yaml';
  for (const argv of [
    draftFlags,
    [...draftFlags, '--release-version', 'Acoustic'],
    [...draftFlags, '--p-line', '2026 Northern Lights Records', '--explicit', 'clean'],
    ['--file', example, '--submit'],
    ['--file', example, '--catalog-number', 'NLR-0002'],
  ]) {
    const r = await run(['release', 'create', ...argv]);
    expect(r.code, r.stderr).toBe(0);
  }
}
