import { describe, expect, it } from 'vitest';
import { describeError } from '../../src/cli/describe-error.js';
import { ExitCode, UsageError, worstExit } from '../../src/cli/errors.js';
import { ApiError } from '../../src/client/errors.js';

describe('describeError', () => {
  it('keeps a CliError message on one line with its hint and exit code', () => {
    const d = describeError(new UsageError('bad flag --x\nsecond line', 'pass --y'), { debug: false });
    expect(d).toEqual({ message: 'bad flag --x second line', hint: 'pass --y', code: 'usage', exitCode: ExitCode.usage, details: [], files: [] });
  });

  it("words the HTTP client's errors, which are plain data", () => {
    const err = new ApiError({ status: 404, code: 'not_found', message: 'release 7 not found', requestId: 'req_1', method: 'GET', path: '/releases/7' });
    expect(describeError(err, { debug: false })).toEqual({
      message: 'release 7 not found (request req_1)',
      hint: undefined,
      code: 'not_found',
      exitCode: ExitCode.notFound,
      details: [],
      files: [],
    });
    const conflict = new ApiError({
      status: 409,
      code: 'catalog_number_taken',
      message: 'catalog number X is already used by release 4 (in_review)',
      details: { release_id: 4, status: 'in_review' },
      method: 'POST',
      path: '/releases',
    });
    expect(conflict.details).toEqual({ release_id: 4, status: 'in_review' });
    expect(describeError(conflict, { debug: false }).exitCode).toBe(ExitCode.failure);
  });

  it('gives a state conflict its own code (9); not every 409 is one', () => {
    const exitOf = (status: number, code: string) =>
      describeError(new ApiError({ status, code, message: 'x', method: 'POST', path: '/releases/4/submit' }), { debug: false }).exitCode;
    expect(exitOf(409, 'state_conflict')).toBe(ExitCode.conflict);
    expect(exitOf(409, 'catalog_number_taken')).toBe(ExitCode.failure);
    expect(exitOf(409, 'codes_exhausted')).toBe(ExitCode.failure);
    expect(exitOf(409, 'idempotency_in_progress')).toBe(ExitCode.rateLimited);
    expect(exitOf(422, 'idempotency_key_reused')).toBe(ExitCode.failure);
  });

  it('ranks several outcomes: other failures over not found over a state conflict over blocked over ok', () => {
    expect(worstExit([0, 3, 9, 5])).toBe(5);
    expect(worstExit([9, 3, 0])).toBe(9);
    expect(worstExit([5, 1, 9])).toBe(1);
    expect(worstExit([3, 0])).toBe(3);
    expect(worstExit([])).toBe(0);
    // The first of equals wins.
    expect(worstExit([4, 1])).toBe(4);
  });

  it('never describes an object just because it looks like an error', () => {
    const err = { message: 'x', exitCode: ExitCode.notFound };
    expect(describeError(err, { debug: false }).exitCode).toBe(ExitCode.failure);
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
