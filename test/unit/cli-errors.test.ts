import { describe, expect, it } from 'vitest';
import { describeError } from '../../src/cli/describe-error.js';
import { ExitCode, UsageError } from '../../src/cli/errors.js';
import { ApiError } from '../../src/client/errors.js';

describe('describeError', () => {
  it('keeps a CliError message on one line with its hint and exit code', () => {
    const d = describeError(new UsageError('bad flag --x\nsecond line', 'pass --y'), { debug: false });
    expect(d).toEqual({ message: 'bad flag --x second line', hint: 'pass --y', code: 'usage', exitCode: ExitCode.usage, details: [] });
  });

  it("words the HTTP client's errors, which are plain data", () => {
    const err = new ApiError({ status: 404, code: 'not_found', message: 'release 7 not found', requestId: 'req_1', method: 'GET', path: '/releases/7' });
    expect(describeError(err, { debug: false })).toEqual({ message: 'release 7 not found (request req_1)', hint: undefined, code: 'not_found', exitCode: ExitCode.notFound, details: [] });
    const conflict = new ApiError({ status: 409, code: 'catalog_number_taken', message: 'catalog number X is already used by release 4 (in_review)', details: { release_id: 4, status: 'in_review' }, method: 'POST', path: '/releases' });
    expect(conflict.details).toEqual({ release_id: 4, status: 'in_review' });
    expect(describeError(conflict, { debug: false }).exitCode).toBe(ExitCode.failure);
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
