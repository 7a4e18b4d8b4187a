import { describe, expect, it } from 'vitest';
import { chooseRetries, formatReportLine, interruptedLine, parseReport, retryWords, type ReportLine } from '../../src/cli/apply/report.js';
import { UsageError } from '../../src/cli/errors.js';

function line(catalog: string, outcome: ReportLine['outcome'], overrides: Partial<ReportLine> = {}): ReportLine {
  return {
    file: `${catalog}.yaml`,
    catalog_number: catalog,
    release_id: outcome === 'failed' ? null : 42,
    action: 'create',
    outcome,
    status: outcome === 'failed' ? null : 'draft',
    problems: [],
    error: outcome === 'failed' ? { code: 'network', message: 'the service did not answer' } : null,
    sandbox: false,
    ...overrides,
  };
}

describe('apply --report', () => {
  it('writes one JSON object per line and reads it back', () => {
    const lines = [line('NLR-1', 'created'), line('NLR-2', 'failed')];
    const text = lines.map(formatReportLine).join('');
    expect(text.split('\n')).toHaveLength(3);
    expect(parseReport('report.jsonl', text)).toEqual(lines);
  });

  it('reads reports joined with cat, blank lines, CRLF and fields it does not know', () => {
    const shard1 = formatReportLine(line('NLR-1', 'created'));
    const shard2 = `${JSON.stringify({ ...line('NLR-2', 'blocked'), extra: true })}\r\n\n`;
    const parsed = parseReport('all.jsonl', shard1 + shard2);
    expect(parsed.map((l) => l.catalog_number)).toEqual(['NLR-1', 'NLR-2']);
    expect(parsed[1]).not.toHaveProperty('extra');
  });

  it('names a bad line by its number', () => {
    const text = `${formatReportLine(line('NLR-1', 'created'))}{"file": \n`;
    expect(() => parseReport('report.jsonl', text)).toThrow(UsageError);
    expect(() => parseReport('report.jsonl', text)).toThrow('report.jsonl:2: not JSON; expected one release per line, as written by --report');
  });

  it('lists every bad line above one error', () => {
    const good = formatReportLine(line('NLR-1', 'created'));
    const text = `${good}${JSON.stringify({ ...line('NLR-2', 'created'), outcome: 'exploded' })}\nnope\n${JSON.stringify([1])}\n`;
    try {
      parseReport('r.jsonl', text);
      expect.unreachable();
    } catch (err) {
      const e = err as UsageError;
      expect(e.message).toBe('r.jsonl: 3 bad lines');
      expect(e.details).toHaveLength(3);
      expect(e.details[0]).toMatch(/^r\.jsonl:2: outcome: /);
      expect(e.details[1]).toMatch(/^r\.jsonl:3: not JSON/);
      expect(e.details[2]).toMatch(/^r\.jsonl:4: /);
    }
  });

  it('retries what failed, was blocked or interrupted, and what has no line; the last line of a catalog number winning', () => {
    const report = [
      line('NLR-1', 'failed'),
      line('NLR-2', 'blocked', { problems: [{ code: 'artwork_missing', message: 'no artwork', severity: 'error' }] }),
      line('NLR-3', 'created'),
      line('NLR-4', 'skipped'),
      line('nlr-1 ', 'updated'),
      line('NLR-3', 'failed'),
      line('NLR-5', 'submitted'),
      line('NLR-6', 'unchanged'),
      line('NLR-7', 'interrupted', { action: null }),
      line('NLR-8', 'converged'),
    ];
    const items = ['NLR-1', 'NLR-2', 'NLR-3', 'NLR-4', 'NLR-5', 'NLR-6', 'NLR-7', 'NLR-8', 'NLR-9', 'nlr-10'].map((catalogNumber) => ({ catalogNumber }));
    const { retry, why } = chooseRetries(items, report);
    expect(retry.map((i) => i.catalogNumber)).toEqual(['NLR-2', 'NLR-3', 'NLR-7', 'NLR-9', 'nlr-10']);
    expect(why).toEqual({ failed: 1, blocked: 1, interrupted: 1, unreported: 2 });
    expect(retryWords('r.jsonl', retry.length, items.length, why)).toBe('retrying 5 of 10: 1 failed, 1 blocked, 1 interrupted, 2 never reported');
    // A report without lines (a run killed before its first): everything.
    expect(chooseRetries(items, []).retry).toHaveLength(10);
    const none = chooseRetries([{ catalogNumber: 'NLR-5' }], report);
    expect(retryWords('r.jsonl', 0, 1, none.why)).toBe('nothing to retry: the release is done in r.jsonl');
  });

  it('an interrupted line says what exists and what to run, and reads back', () => {
    const stop = { code: 'timed_out', words: 'timed out after 2s' };
    const base = { file: 'a.yaml', catalogNumber: ' NLR-1 ', sandbox: false };
    const inFlight = interruptedLine({ ...base, started: true, releaseId: 12, status: 'draft' }, stop);
    expect(inFlight).toMatchObject({ catalog_number: 'NLR-1', release_id: 12, action: null, outcome: 'interrupted', status: 'draft', problems: [] });
    expect(inFlight.error).toEqual({
      code: 'timed_out',
      message:
        'the run stopped (timed out after 2s) while this release was being applied; release 12 is draft (the step in flight may or may not be done); run `reldist release apply` again to resume',
    });
    const notStarted = interruptedLine({ ...base, started: false, releaseId: null, status: null }, stop);
    expect(notStarted.error?.message).toBe(
      'the run stopped (timed out after 2s) before this release was started: nothing was done for it; run `reldist release apply` again to apply it',
    );
    expect(parseReport('r', formatReportLine(inFlight) + formatReportLine(notStarted))).toEqual([inFlight, notStarted]);
  });
});
