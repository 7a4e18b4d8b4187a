import { describe, expect, it } from 'vitest';
import { describeError } from '../../src/cli/describe-error.js';
import { CliError, ExitCode, UsageError } from '../../src/cli/errors.js';

describe('describeError', () => {
  it('keeps a CliError message on one line with its hint and exit code', () => {
    const d = describeError(new UsageError('bad flag --x\nsecond line', 'pass --y'), { debug: false });
    expect(d).toEqual({ message: 'bad flag --x second line', hint: 'pass --y', code: 'usage', exitCode: ExitCode.usage, details: [] });
  });

  it('converts errors that know how to describe themselves', () => {
    const err = { toCliError: () => new CliError('not found: release 7', { exitCode: ExitCode.notFound }) };
    expect(describeError(err, { debug: false }).exitCode).toBe(ExitCode.notFound);
  });

  it('turns an unknown error into exit 1 with a hint to use --debug', () => {
    const d = describeError(new TypeError('boom'), { debug: false });
    expect(d.exitCode).toBe(1);
    expect(d.hint).toMatch(/--debug/);
  });

  it('keeps the details of an error (one problem per line) apart from its message', () => {
    const d = describeError(new UsageError('f.yaml: 2 problems', 'fix them', ['f.yaml:1: a: bad', 'f.yaml:2: b: bad']), { debug: false });
    expect(d.message).toBe('f.yaml: 2 problems');
    expect(d.details).toEqual(['f.yaml:1: a: bad', 'f.yaml:2: b: bad']);
    expect(describeError(new TypeError('boom'), { debug: false }).details).toEqual([]);
  });
});
