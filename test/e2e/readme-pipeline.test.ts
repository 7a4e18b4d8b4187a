// The README's CI pipeline ("CI: catalog as code"), run as written under GitHub Actions' rules
// (test/helpers/ci-runner.ts): its YAML block is read from README.md, `npx reldist` is the built
// binary, and the service is a real `reldist serve --sandbox` that approves what is submitted.
// The apply step's first attempt goes through the seeded fault proxy, which also cuts off every
// upload, so that attempt fails in every shard that has releases; the pipeline must still end
// green, with every release approved and the watch step run.
//
// What the runner cannot execute is done here, as copying files: actions/checkout copies the
// catalog into the job's folder; upload-artifact copies the file to an artifact folder of that
// name; download-artifact (no name) copies every artifact into a folder of its name.
//
// Needs bash and jq (the pipeline's review step uses jq): it runs when RELDIST_PIPELINE_TEST=1,
// which .ci/run sets. About 20 s: 4 shards, 6 releases.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { cp, mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { runWorkflow, type Workflow } from '../helpers/ci-runner.js';
import { startFaultProxy, type FaultProxy } from '../helpers/fault-proxy.js';
import { releaseYaml } from '../helpers/release-yaml.js';
import { binPath, cleanEnv, repoRoot } from './sandbox-helpers.js';

const RELEASES = 6;
const AUDIO = join(repoRoot, 'examples/first-release/audio/first-light.flac');

let work: string;
let serve: ChildProcessWithoutNullStreams | undefined;
let service: { base_url: string; tokens: { label: string } };
let proxy: FaultProxy;

/** `reldist serve --sandbox`, auto-approving a second after submit, on a free port; its first line says where. */
function startServe(dataDir: string): Promise<{ base_url: string; tokens: { label: string } }> {
  const child = spawn(
    process.execPath,
    [binPath, 'serve', '--sandbox', '--sandbox-auto-review', 'approve', '--sandbox-review-delay', '1s', '--port', '0', '--data-dir', dataDir],
    {
      env: cleanEnv({}),
      stdio: ['pipe', 'pipe', 'pipe'],
    },
  );
  serve = child;
  let out = '';
  let err = '';
  child.stderr.on('data', (b: Buffer) => (err += b.toString('utf8')));
  return new Promise((resolve, reject) => {
    child.stdout.on('data', (b: Buffer) => {
      out += b.toString('utf8');
      const nl = out.indexOf('\n');
      if (nl !== -1) resolve(JSON.parse(out.slice(0, nl)));
    });
    child.on('close', (code) => reject(new Error(`serve exited (${code}) before printing: ${err}`)));
  });
}

/** The README's pipeline: the yaml block of "CI: catalog as code" that has jobs. */
async function readmePipeline(): Promise<Workflow> {
  const readme = await readFile(join(repoRoot, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('## CI: catalog as code'));
  const block = /```yaml\n([\s\S]*?)```/.exec(section);
  if (!block) throw new Error('README.md: no yaml block in "CI: catalog as code"');
  return parse(block[1]!) as Workflow;
}

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}

const enabled = process.env.RELDIST_PIPELINE_TEST === '1';

describe.skipIf(!enabled)("the README's CI pipeline", () => {
  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'reldist-pipeline-'));
    service = await startServe(join(work, 'service'));
    proxy = await startFaultProxy({
      target: service.base_url,
      seed: 11,
      faults: { unavailable: 0.1, dropAfter: 0.05, delay: 0.1, delayMs: [5, 30] },
      // Every upload of the first attempt is cut off: its releases stay drafts, the attempt fails.
      onRequest: (e) => (e.route === '/uploads/{key}' ? 'drop' : undefined),
    });
    await mkdir(join(work, 'repo', 'catalog'), { recursive: true });
    for (let i = 1; i <= RELEASES; i++) await writeFile(join(work, 'repo', 'catalog', `r${i}.yaml`), releaseYaml(`PIPE-${i}`, { audio: AUDIO }));
  }, 30_000);

  afterAll(async () => {
    await proxy?.close();
    serve?.kill('SIGTERM');
    if (work) await rm(work, { recursive: true, force: true });
  });

  it('ends green: the first attempt fails through faults, the retry converges, review watches every release to approval', { timeout: 120_000 }, async () => {
    const workflow = await readmePipeline();
    const artifacts = join(work, 'artifacts');
    const config = join(work, 'config');
    let jobs = 0;
    const firstAttempts = new Set<string>();
    const result = await runWorkflow(workflow, {
      vars: { RELDIST_BASE_URL: service.base_url },
      secrets: { RELDIST_TOKEN: service.tokens.label },
      baseEnv: cleanEnv({ RELDIST_CONFIG_DIR: config, RELDIST_DATA_DIR: join(config, 'data'), HOME: config }),
      workspace: async (job, matrix) => {
        const dir = join(work, 'jobs', `${++jobs}-${job}${matrix.shard === undefined ? '' : `-${String(matrix.shard)}`}`);
        await mkdir(dir, { recursive: true });
        return dir;
      },
      actions: {
        'actions/checkout': ({ workspace }) => cp(join(work, 'repo'), workspace, { recursive: true }),
        'actions/upload-artifact': async ({ workspace, with: w }) => {
          const from = join(workspace, w.path!);
          // As the real action by default (if-no-files-found: warn): nothing to upload is not a failure.
          if (!(await exists(from))) return;
          await mkdir(join(artifacts, w.name!), { recursive: true });
          await cp(from, join(artifacts, w.name!, basename(w.path!)));
        },
        'actions/download-artifact': async ({ workspace }) => {
          if (await exists(artifacts)) await cp(artifacts, workspace, { recursive: true });
        },
      },
      rewrite: (script) => script.replace(/\bnpx reldist\b/g, `'${process.execPath}' '${binPath}'`),
      // The first `release apply` of each job only goes through the fault proxy (whatever the
      // pipeline names it); the retry and the review go straight to the service.
      stepEnv: (job, step, matrix): Record<string, string> => {
        const key = `${job} ${JSON.stringify(matrix)}`;
        if (!/\brelease apply\b/.test(step.run ?? '') || firstAttempts.has(key)) return {};
        firstAttempts.add(key);
        return { RELDIST_BASE_URL: proxy.url };
      },
      stepTimeoutMs: 60_000,
    });
    const explain = JSON.stringify(
      result.jobs.map((j) => ({
        job: j.job,
        matrix: j.matrix,
        result: j.result,
        steps: j.steps.map((s) => ({ step: s.step, outcome: s.outcome, output: s.output.slice(-600) })),
      })),
      null,
      1,
    );
    console.log(
      `README pipeline: ${result.jobs.map((j) => `${j.job}${j.matrix.shard ?? ''} ${j.result} [${j.steps.map((s) => s.outcome).join(' ')}]`).join('; ')}; proxy ${JSON.stringify(proxy.stats.byDecision)}`,
    );
    expect(result.result, explain).toBe('success');

    const applies = result.jobs.filter((j) => j.job === 'apply');
    expect(applies.map((j) => j.matrix.shard)).toEqual([1, 2, 3, 4]);
    for (const j of applies) {
      expect(j.result, explain).toBe('success');
      const [, first, retry] = j.steps;
      // The retry ran exactly when the first attempt failed.
      expect(retry!.outcome, explain).toBe(first!.outcome === 'failure' ? 'success' : 'skipped');
      if (first!.outcome === 'failure') expect(retry!.output).toMatch(/^retrying \d+ of \d+: \d+ failed/m);
    }
    expect(applies.filter((j) => j.steps[1]!.outcome === 'failure').length, explain).toBeGreaterThan(0);
    expect(proxy.stats.byRoute['PUT /uploads/{key}']?.requests ?? 0).toBeGreaterThan(0);

    const review = result.jobs.find((j) => j.job === 'review')!;
    expect(review.result, explain).toBe('success');
    const watch = review.steps.at(-1)!;
    expect(watch.step).toMatch(/release watch/);
    expect(watch.outcome).toBe('success');
    // One tab-separated line per change of state; each release's last says approved.
    const lastStatus = new Map(
      watch.output
        .trim()
        .split('\n')
        .map((l) => l.split('\t'))
        .map((c) => [c[1], c[2]]),
    );
    expect([...lastStatus].sort(), watch.output).toEqual(Array.from({ length: RELEASES }, (_, i) => [`PIPE-${i + 1}`, 'approved']));

    // On the service: each catalog number once, approved.
    const res = await fetch(`${service.base_url}/releases?perPage=100`, { headers: { authorization: `Bearer ${service.tokens.label}` } });
    const releases = ((await res.json()) as { data: { catalog_number: string | null; status: string }[] }).data;
    expect(releases.map((r) => [r.catalog_number, r.status]).sort()).toEqual(Array.from({ length: RELEASES }, (_, i) => [`PIPE-${i + 1}`, 'approved']));
  });
});
