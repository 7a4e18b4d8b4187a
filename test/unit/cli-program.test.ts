import { describe, expect, it } from 'vitest';
import { invokedName, toUsageError } from '../../src/cli/program.js';
import { CommanderError } from 'commander';

describe('invokedName (which group to build)', () => {
  it('finds the first command word, skipping global flags and their values', () => {
    expect(invokedName(['release', 'list'])).toBe('release');
    expect(invokedName(['--profile', 'ci', '--json', 'auth', 'status'])).toBe('auth');
    expect(invokedName(['--base-url', 'http://x', 'api', 'GET', '/me'])).toBe('api');
    expect(invokedName(['help', 'auth'])).toBe('auth');
    expect(invokedName(['--help'])).toBeUndefined();
    expect(invokedName(['--', 'auth'])).toBeUndefined();
  });
});

describe('toUsageError', () => {
  it("keeps commander's suggestion as the hint", () => {
    const e = toUsageError(new CommanderError(1, 'commander.unknownCommand', "error: unknown command 'relese'\n(Did you mean release?)"));
    expect(e.message).toBe("unknown command 'relese'");
    expect(e.hint).toBe('did you mean release?');
  });
});
