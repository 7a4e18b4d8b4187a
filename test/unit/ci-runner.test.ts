// The test pipeline runner (test/helpers/ci-runner.ts) keeps GitHub Actions' rules: a failed step
// fails the job unless it says continue-on-error, a retry under `if: failure()` cannot make the job
// green again, and a job that needs a failed one does not run.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { evaluate, runWorkflow, type RunnerOptions, type Workflow } from '../helpers/ci-runner.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'reldist-ci-runner-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const options = (): RunnerOptions => ({
  vars: { WHO: 'ci' },
  secrets: {},
  baseEnv: { PATH: process.env.PATH },
  actions: {},
  workspace: async () => dir,
});

/** A job whose first step fails in matrix combination 2, retried by the second step. */
function workflow(retry: Record<string, unknown>, first: Record<string, unknown> = {}): Workflow {
  return {
    jobs: {
      apply: {
        strategy: { matrix: { shard: [1, 2] } },
        steps: [
          { ...first, run: 'test "${{ matrix.shard }}" != 2' },
          { ...retry, run: 'echo "retried ${{ matrix.shard }} for ${{ vars.WHO }}"' },
        ],
      },
      review: { needs: 'apply', steps: [{ run: 'echo reviewed' }] },
    },
  } as Workflow;
}

describe('ci-runner', () => {
  it('a retry under if: failure() runs, yet the job stays failed and what needs it is skipped', async () => {
    const r = await runWorkflow(workflow({ if: 'failure()' }), options());
    expect(r.result).toBe('failure');
    const [one, two, review] = r.jobs;
    expect(one!.steps.map((s) => s.outcome)).toEqual(['success', 'skipped']);
    expect(two!.steps.map((s) => s.outcome)).toEqual(['failure', 'success']);
    expect(two!.steps[1]!.output).toBe('retried 2 for ci\n');
    expect(two!.result).toBe('failure');
    expect(review).toMatchObject({ job: 'review', result: 'skipped' });
  });

  it('continue-on-error with the retry on steps.<id>.outcome: green when the retry succeeds, and the next job runs', async () => {
    const r = await runWorkflow(workflow({ if: "steps.apply.outcome == 'failure'" }, { id: 'apply', 'continue-on-error': true }), options());
    expect(r.result).toBe('success');
    expect(r.jobs.map((j) => [j.job, j.result, j.steps.map((s) => `${s.outcome}/${s.conclusion}`).join(' ')])).toEqual([
      ['apply', 'success', 'success/success skipped/skipped'],
      ['apply', 'success', 'failure/success success/success'],
      ['review', 'success', 'success/success'],
    ]);
  });

  it('refuses what it does not know, and evaluates the small expression language', async () => {
    await expect(runWorkflow({ jobs: { a: { steps: [{ run: 'true', shell: 'sh' } as never] } } }, options())).rejects.toThrow('shell is not supported');
    const scope = { steps: { apply: { outcome: 'failure' } }, matrix: { shard: 2 } };
    expect(evaluate("steps.apply.outcome == 'FAILURE' && !(matrix.shard != 2)", scope, {})).toBe(true);
    expect(evaluate("steps.other.outcome == 'failure' || 'x'", scope, {})).toBe('x');
    expect(() => evaluate('github.ref', scope, {})).toThrow('unknown context github');
  });
});
