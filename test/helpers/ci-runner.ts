// A small runner for a GitHub Actions workflow, for testing the README's pipeline under a real
// CI's rules: jobs in the order `needs` gives, each matrix combination a job of its own (one at a
// time; fail-fast cancels the rest), `run:` steps in bash with `-eo pipefail` (as the runner's
// default shell), and exactly these rules:
//   - a step runs when its `if:` holds; a condition without a status function (success(),
//     failure(), always(), cancelled()) is `success() && (condition)`; no `if:` is `success()`;
//   - success() is true while no step so far has concluded in failure, failure() once one has;
//   - a failing step's outcome is failure; its conclusion too, unless `continue-on-error: true`
//     (then success); a job fails when any step concluded in failure;
//   - a job runs when every job it `needs` succeeded (all its matrix combinations).
// Expressions `${{ … }}` in run, env and with: matrix, vars, secrets, steps.<id>.outcome and
// .conclusion, ==, !=, &&, ||, !, parentheses, string, number and boolean literals.
// What the runner cannot execute, `uses:` actions, is done by the caller's `actions` (e.g. copying
// files for checkout and the artifacts). Anything else in the workflow is refused, so that a
// rule this runner does not know can never pass unnoticed.
import { spawn } from 'node:child_process';

export interface Step {
  id?: string;
  name?: string;
  if?: string;
  run?: string;
  uses?: string;
  with?: Record<string, unknown>;
  env?: Record<string, unknown>;
  'continue-on-error'?: boolean;
}

export interface Job {
  needs?: string | string[];
  strategy?: { matrix?: Record<string, unknown[]>; 'fail-fast'?: boolean };
  env?: Record<string, unknown>;
  'runs-on'?: string;
  steps: Step[];
}

export interface Workflow {
  jobs: Record<string, Job>;
}

export type Result = 'success' | 'failure' | 'skipped' | 'cancelled';

export interface StepRecord {
  step: string;
  outcome: Result;
  conclusion: Result;
  exitCode: number | null;
  output: string;
}

export interface JobRecord {
  job: string;
  matrix: Record<string, unknown>;
  result: Result;
  steps: StepRecord[];
}

export interface ActionContext {
  /** The job's working folder. */
  workspace: string;
  /** The action's `with:`, expressions evaluated. */
  with: Record<string, string>;
}

export interface RunnerOptions {
  vars: Record<string, string>;
  secrets: Record<string, string>;
  /** The environment every step starts from (PATH, HOME…), before the job's and the step's env. */
  baseEnv: NodeJS.ProcessEnv;
  /** What each `uses:` action (its name without @version) does here. */
  actions: Record<string, (ctx: ActionContext) => Promise<void>>;
  /** A fresh working folder for a job (one per matrix combination). */
  workspace(job: string, matrix: Record<string, unknown>): Promise<string>;
  /** The script as it runs here (e.g. `npx reldist` made the built binary). */
  rewrite?(script: string): string;
  /** More environment for one step of one job (e.g. a first attempt through a fault proxy). */
  stepEnv?(job: string, step: Step, matrix: Record<string, unknown>): Record<string, string>;
  /** Bounds each `run:` step. */
  stepTimeoutMs?: number;
}

const STEP_KEYS = new Set(['id', 'name', 'if', 'run', 'uses', 'with', 'env', 'continue-on-error']);
const JOB_KEYS = new Set(['needs', 'strategy', 'env', 'runs-on', 'steps']);

export async function runWorkflow(workflow: Workflow, options: RunnerOptions): Promise<{ result: Result; jobs: JobRecord[] }> {
  const records: JobRecord[] = [];
  const results = new Map<string, Result>();
  const order = jobOrder(workflow);
  for (const name of order) {
    const job = workflow.jobs[name]!;
    for (const key of Object.keys(job)) if (!JOB_KEYS.has(key)) throw new Error(`ci-runner: job ${name}: ${key} is not supported`);
    const needs = typeof job.needs === 'string' ? [job.needs] : (job.needs ?? []);
    const combos = matrixOf(job);
    if (!needs.every((n) => results.get(n) === 'success')) {
      for (const matrix of combos) records.push({ job: name, matrix, result: 'skipped', steps: [] });
      results.set(name, 'skipped');
      continue;
    }
    let jobResult: Result = 'success';
    for (const matrix of combos) {
      if (jobResult === 'failure' && job.strategy?.['fail-fast'] !== false) {
        records.push({ job: name, matrix, result: 'cancelled', steps: [] });
        continue;
      }
      const record = await runJob(name, job, matrix, options);
      records.push(record);
      if (record.result !== 'success') jobResult = 'failure';
    }
    results.set(name, jobResult);
  }
  const result = [...results.values()].every((r) => r === 'success') ? 'success' : 'failure';
  return { result, jobs: records };
}

function jobOrder(workflow: Workflow): string[] {
  const order: string[] = [];
  const visit = (name: string, path: string[]) => {
    if (order.includes(name)) return;
    if (path.includes(name)) throw new Error(`ci-runner: jobs need each other: ${[...path, name].join(' → ')}`);
    const job = workflow.jobs[name];
    if (!job) throw new Error(`ci-runner: no job ${name}`);
    const needs = typeof job.needs === 'string' ? [job.needs] : (job.needs ?? []);
    for (const n of needs) visit(n, [...path, name]);
    order.push(name);
  };
  for (const name of Object.keys(workflow.jobs)) visit(name, []);
  return order;
}

function matrixOf(job: Job): Record<string, unknown>[] {
  let combos: Record<string, unknown>[] = [{}];
  for (const [key, values] of Object.entries(job.strategy?.matrix ?? {})) {
    if (!Array.isArray(values)) throw new Error(`ci-runner: matrix.${key} must be a list`);
    combos = combos.flatMap((c) => values.map((v) => ({ ...c, [key]: v })));
  }
  return combos;
}

async function runJob(name: string, job: Job, matrix: Record<string, unknown>, options: RunnerOptions): Promise<JobRecord> {
  const workspace = await options.workspace(name, matrix);
  const steps: Record<string, { outcome: Result; conclusion: Result }> = {};
  const records: StepRecord[] = [];
  let failed = false;
  const scope = () => ({ matrix, vars: options.vars, secrets: options.secrets, steps });
  for (const [i, step] of job.steps.entries()) {
    for (const key of Object.keys(step)) if (!STEP_KEYS.has(key)) throw new Error(`ci-runner: ${name} step ${i + 1}: ${key} is not supported`);
    const label = step.id ?? step.name ?? step.uses ?? step.run!.split('\n')[0]!;
    const status = { success: () => !failed, failure: () => failed, always: () => true, cancelled: () => false };
    const condition = unwrap(step.if ?? 'success()');
    const runs = truthy(evaluate(/\b(success|failure|always|cancelled)\s*\(/.test(condition) ? condition : `success() && (${condition})`, scope(), status));
    if (!runs) {
      records.push({ step: label, outcome: 'skipped', conclusion: 'skipped', exitCode: null, output: '' });
      if (step.id) steps[step.id] = { outcome: 'skipped', conclusion: 'skipped' };
      continue;
    }
    let exitCode: number | null = 0;
    let output = '';
    if (step.uses !== undefined) {
      const action = options.actions[step.uses.replace(/@.*$/, '')];
      if (!action) throw new Error(`ci-runner: no stand-in for ${step.uses}`);
      const withArgs = Object.fromEntries(Object.entries(step.with ?? {}).map(([k, v]) => [k, substitute(String(v), scope())]));
      try {
        await action({ workspace, with: withArgs });
      } catch (err) {
        exitCode = 1;
        output = String(err);
      }
    } else if (step.run !== undefined) {
      const env: NodeJS.ProcessEnv = { ...options.baseEnv, CI: 'true', GITHUB_ACTIONS: 'true' };
      for (const [k, v] of [...Object.entries(job.env ?? {}), ...Object.entries(step.env ?? {})]) env[k] = substitute(String(v), scope());
      Object.assign(env, options.stepEnv?.(name, step, matrix) ?? {});
      const script = substitute(step.run, scope());
      ({ exitCode, output } = await bash(options.rewrite ? options.rewrite(script) : script, workspace, env, options.stepTimeoutMs ?? 120_000));
    } else {
      throw new Error(`ci-runner: ${name} step ${i + 1} has neither run nor uses`);
    }
    const outcome: Result = exitCode === 0 ? 'success' : 'failure';
    const conclusion: Result = outcome === 'failure' && step['continue-on-error'] === true ? 'success' : outcome;
    if (conclusion === 'failure') failed = true;
    if (step.id) steps[step.id] = { outcome, conclusion };
    records.push({ step: label, outcome, conclusion, exitCode, output });
  }
  return { job: name, matrix, result: failed ? 'failure' : 'success', steps: records };
}

function bash(script: string, cwd: string, env: NodeJS.ProcessEnv, timeoutMs: number): Promise<{ exitCode: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['--noprofile', '--norc', '-eo', 'pipefail', '-c', script], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (b: Buffer) => (output += b.toString('utf8')));
    child.stderr.on('data', (b: Buffer) => (output += b.toString('utf8')));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ exitCode: code, output });
    });
  });
}

// ---- expressions --------------------------------------------------------------------------

type Scope = Record<string, unknown>;

function unwrap(text: string): string {
  const m = /^\s*\$\{\{([\s\S]*)\}\}\s*$/.exec(text);
  return (m ? m[1]! : text).trim();
}

/** `${{ expr }}` in a string, each replaced by its value. */
export function substitute(text: string, scope: Scope): string {
  return text.replace(/\$\{\{([\s\S]*?)\}\}/g, (_, expr: string) => {
    const v = evaluate(expr.trim(), scope, {});
    return v === undefined || v === null ? '' : String(v);
  });
}

function truthy(v: unknown): boolean {
  return v !== undefined && v !== null && v !== false && v !== 0 && v !== '';
}

const TOKEN_RE = /\s*(?:(==|!=|&&|\|\||[!().])|('(?:[^']|'')*')|(\d+(?:\.\d+)?)|([A-Za-z_][\w-]*))/y;

/** Evaluates an expression of the small language above; anything else throws. */
export function evaluate(expr: string, scope: Scope, functions: Record<string, () => unknown>): unknown {
  const tokens: string[] = [];
  TOKEN_RE.lastIndex = 0;
  while (TOKEN_RE.lastIndex < expr.length) {
    if (/^\s*$/.test(expr.slice(TOKEN_RE.lastIndex))) break;
    const start = TOKEN_RE.lastIndex;
    const m = TOKEN_RE.exec(expr);
    if (!m) throw new Error(`ci-runner: cannot read ${JSON.stringify(expr)} at ${start}`);
    tokens.push(m[0].trim());
  }
  let pos = 0;
  const peek = () => tokens[pos];
  const take = (t?: string) => {
    const got = tokens[pos++];
    if (t !== undefined && got !== t) throw new Error(`ci-runner: expected ${t} in ${JSON.stringify(expr)}`);
    return got!;
  };
  const or = (): unknown => {
    let v = and();
    while (peek() === '||') {
      take();
      const r = and();
      v = truthy(v) ? v : r;
    }
    return v;
  };
  const and = (): unknown => {
    let v = compare();
    while (peek() === '&&') {
      take();
      const r = compare();
      v = truthy(v) ? r : v;
    }
    return v;
  };
  const compare = (): unknown => {
    const v = unary();
    if (peek() === '==' || peek() === '!=') {
      const op = take();
      const r = unary();
      const equal = typeof v === 'string' && typeof r === 'string' ? v.toLowerCase() === r.toLowerCase() : v === r;
      return op === '==' ? equal : !equal;
    }
    return v;
  };
  const unary = (): unknown => {
    if (peek() === '!') {
      take();
      return !truthy(unary());
    }
    return primary();
  };
  const primary = (): unknown => {
    const t = take();
    if (t === '(') {
      const v = or();
      take(')');
      return v;
    }
    if (t.startsWith("'")) return t.slice(1, -1).replace(/''/g, "'");
    if (/^\d/.test(t)) return Number(t);
    if (t === 'true' || t === 'false') return t === 'true';
    if (t === 'null') return null;
    if (peek() === '(') {
      take('(');
      take(')');
      const fn = functions[t];
      if (!fn) throw new Error(`ci-runner: ${t}() is not supported here`);
      return fn();
    }
    if (!(t in scope)) throw new Error(`ci-runner: unknown context ${t} in ${JSON.stringify(expr)}`);
    let v: unknown = scope[t];
    while (peek() === '.') {
      take();
      const key = take();
      v = v !== null && typeof v === 'object' ? (v as Record<string, unknown>)[key] : undefined;
    }
    return v;
  };
  const value = or();
  if (pos !== tokens.length) throw new Error(`ci-runner: unexpected ${tokens[pos]} in ${JSON.stringify(expr)}`);
  return value;
}
