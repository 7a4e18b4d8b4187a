// Every CLI command that talks to the service, run against the real reference service through a
// validating proxy of openapi.json (test/helpers/contract-proxy.ts): every request and answer,
// errors included, must be what the document says, status, headers and body. The whole
// integration suite can be run the same way: RELDIST_CONTRACT_CHECK=1 npx vitest run test/integration
// (cli-harness.ts then puts the proxy in front of every service it starts).
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ContractChecker } from '../helpers/contract-check.js';
import { testImages } from '../helpers/images.js';
import { releaseYaml } from '../helpers/release-yaml.js';
import { startContractProxy, type ContractProxy } from '../helpers/contract-proxy.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { makeConfigDir, runCli, writeWav } from '../integration/cli-harness.js';

const checker = new ContractChecker();
let server: TestServer;
let proxy: ContractProxy;
let config: { dir: string; cleanup(): Promise<void> };
let work: string;

beforeAll(async () => {
  server = await startTestServer();
  proxy = await startContractProxy(server.url, checker);
  config = await makeConfigDir();
  work = await mkdtemp(join(tmpdir(), 'reldist-contract-'));
});
afterAll(async () => {
  await proxy?.close();
  await server?.close();
  await config?.cleanup();
  if (work) await rm(work, { recursive: true, force: true });
});

const run = (argv: string[], o: { token?: string; stdin?: string } = {}) =>
  runCli(argv, { url: proxy.url, token: o.token ?? server.tokens.label, configDir: config.dir, ...(o.stdin !== undefined ? { stdin: o.stdin } : {}) });

/** [argv, expected exit code, which account]: each a command a user runs, successes and refusals. */
type Step = { argv: string[]; code: number; as?: 'artist' | 'label' | 'nobody'; stdin?: string };

const steps = (): Step[] => [
  { argv: ['me'], code: 0 },
  { argv: ['me'], code: 4, as: 'nobody' },
  { argv: ['auth', 'status'], code: 0 },
  ...['countries', 'platforms', 'genres', 'languages'].map((l) => ({ argv: ['lookup', l, '--json'], code: 0 })),
  { argv: ['validate', 'upc', '036000241457', '--remote'], code: 0 },
  { argv: ['validate', 'isrc', 'GBNLR2600001', '--remote'], code: 0 },
  { argv: ['validate', 'isrc', 'XX', '--remote'], code: 3 },
  { argv: ['release', 'create', '--type', 'single', '--title', 'Northern Sky', '--artist', 'Nina Vale', '--label', 'Northern Lights Records'], code: 0 },
  { argv: ['release', 'create', '--type', 'single', '--title', 'Blue Hour', '--artist', 'Nina Vale', '--label', 'Northern Lights Records'], code: 0 },
  { argv: ['release', 'list'], code: 0 },
  { argv: ['release', 'list', '--status', 'draft', '--per-page', '1', '--page', '2', '--json'], code: 0 },
  { argv: ['release', 'list', '--all', '--per-page', '1', '--json'], code: 0 },
  { argv: ['release', 'get', '1'], code: 0 },
  { argv: ['release', 'get', '999'], code: 5 },
  { argv: ['release', 'edit', '1', '--genre', 'Pop', '--territories', 'exclude:kp', '--video-enabled', 'yes'], code: 0 },
  { argv: ['release', 'edit', '1', '--title', 'X', '--platforms', 'no_such_store'], code: 3 },
  { argv: ['release', 'edit', '1', '--artwork', join('WORK', 'cover.jpg')], code: 0 },
  { argv: ['track', 'upload', '1', join('WORK', 'northern-sky.wav')], code: 0 },
  { argv: ['track', 'list', '1'], code: 0 },
  { argv: ['track', 'get', '1', '1'], code: 0 },
  { argv: ['track', 'get', '1', '99'], code: 5 },
  { argv: ['track', 'edit', '1', '1', '--title', 'Northern Sky'], code: 0 },
  { argv: ['track', 'replace', '1', '1', join('WORK', 'remaster.wav')], code: 0 },
  { argv: ['track', 'set', '1', '--file', join('WORK', 'tracks.yaml')], code: 0 },
  { argv: ['release', 'submit', '1', '2', '--dry-run'], code: 3 },
  // Several releases go as one batch: refused each in its own result, or refused as a whole.
  { argv: ['release', 'submit', '2', '999'], code: 5 },
  { argv: ['release', 'submit', '1', '2'], code: 4, as: 'nobody' },
  { argv: ['release', 'submit', '2'], code: 3 },
  { argv: ['release', 'delete', '2', '--yes'], code: 0 },
  { argv: ['release', 'apply', 'examples/first-release/release.yaml', '--yes'], code: 0 },
  { argv: ['release', 'create', '--file', 'examples/first-release/release.yaml', '--check'], code: 0 },
  { argv: ['release', 'create', '--file', 'examples/first-release/release.yaml', '--catalog-number', 'NLR-0002', '--submit'], code: 0 },
  { argv: ['release', 'withdraw', 'NLR-0002'], code: 0 },
  { argv: ['release', 'withdraw', '4', '--json'], code: 0 },
  { argv: ['release', 'submit', '4'], code: 0 },
  { argv: ['release', 'edit', '4', '--genre', 'Jazz'], code: 9 },
  { argv: ['sandbox', 'approve', '4'], code: 0 },
  { argv: ['release', 'watch', '4', '--timeout', '2s', '--interval', '1s'], code: 0 },
  { argv: ['sandbox', 'deliver', '4'], code: 0 },
  { argv: ['sandbox', 'go-live', '4', '--json'], code: 0 },
  { argv: ['sandbox', 'take-down', '4'], code: 0 },
  { argv: ['release', 'withdraw', '4'], code: 9 },
  // The event log: every kind of event the steps above made, each answer held to the document.
  { argv: ['events', 'list', '--json'], code: 0 },
  { argv: ['events', 'tail', '-n', '3', '--type', 'rejected'], code: 0 },
  { argv: ['events', 'list', '--release', '4', '--follow', '--timeout', '2s'], code: 7 },
  { argv: ['release', 'history', '4', '--json'], code: 0 },
  { argv: ['release', 'history', '2'], code: 0 },
  // Webhooks (a sandbox takes loopback URLs; nothing listens on port 9, so the ping fails: exit 1).
  { argv: ['webhook', 'create', 'http://127.0.0.1:9/hook', '--events', 'approved,rejected', '--description', 'pipeline'], code: 0 },
  { argv: ['webhook', 'create', 'http://127.0.0.1:9/hook'], code: 9 },
  { argv: ['webhook', 'list'], code: 0 },
  { argv: ['api', 'GET', '/webhooks/1'], code: 0 },
  { argv: ['webhook', 'update', '1', '--events', '*'], code: 0 },
  { argv: ['webhook', 'test', '1'], code: 1 },
  { argv: ['webhook', 'rotate-secret', '1', '--overlap', '1h', '--json'], code: 0 },
  { argv: ['webhook', 'resend', '1', '1'], code: 0 },
  { argv: ['webhook', 'deliveries', '1', '--json'], code: 0 },
  { argv: ['webhook', 'delete', '1', '--yes'], code: 0 },
  { argv: ['artist', 'search', 'Lena Voss', '--json'], code: 0 },
  { argv: ['artist', 'search', 'Lena Voss', '--platform', 'store-c', '--limit', '2'], code: 0 },
  { argv: ['artist', 'resolve', 'https://open.streaming-a.example/artist/cn3Vv2aLARkJ1of1D5NpI2'], code: 0 },
  { argv: ['artist', 'resolve', 'cn3Vv2aLARkJ1of1D5NpI2', '--platform', 'streaming_a', '--json'], code: 0 },
  { argv: ['artist', 'resolve', 'https://open.streaming-a.example/artist/cn3Vv2aLARkJ1of1D5NpI2', '--platform', 'streaming_a', '--via-link'], code: 0 },
  { argv: ['prefs', 'label'], code: 0 },
  { argv: ['prefs', 'label', '--per-page', '3'], code: 0 },
  { argv: ['prefs', 'label', '--default-genre', 'Electronic', '--add-artist', 'Kai Moreno'], code: 0 },
  { argv: ['prefs', 'artist'], code: 0, as: 'artist' },
  { argv: ['prefs', 'artist', '--platform', 'streaming_a=cn3Vv2aLARkJ1of1D5NpI2', '--platform', 'store_c=new'], code: 0, as: 'artist' },
  { argv: ['prefs', 'artist'], code: 1, as: 'label' },
  { argv: ['label', 'artists', 'list'], code: 0 },
  { argv: ['label', 'artists', 'get', '1'], code: 0 },
  { argv: ['label', 'artists', 'get', '999'], code: 5 },
  { argv: ['label', 'artists', 'remove', '2', '--yes'], code: 0 },
  { argv: ['artist', 'search', 'Lena Voss', '--platform', 'video-b', '--json'], code: 0 },
  { argv: ['artist', 'search', 'Lena Voss', '--platform', 'streaming-a', '--json'], code: 0 },
  { argv: ['api', 'GET', '/releases', '--paginate'], code: 0 },
  { argv: ['api', 'GET', '/preferences/artists'], code: 0 },
  { argv: ['api', 'DELETE', '/releases/1'], code: 0 },
  { argv: ['api', 'DELETE', '/me'], code: 1 },
  // Uploads in parts: one to a release named by its catalog number, one by release apply (which asks the upload's status
  // first: runs share it); the account's uploads nothing names, and a discard of a key already gone.
  {
    argv: [
      'release',
      'create',
      '--type',
      'single',
      '--title',
      'Long Take',
      '--artist',
      'Nina Vale',
      '--label',
      'Northern Lights Records',
      '--catalog-number',
      'NLR-0097',
    ],
    code: 0,
  },
  { argv: ['track', 'upload', 'NLR-0097', join('WORK', 'long.wav'), '--part-size', '1MiB', '--connections', '2'], code: 0 },
  { argv: ['release', 'apply', join('WORK', 'long.yaml'), '--part-size', '1MiB'], code: 0 },
  { argv: ['upload', 'list', '--json'], code: 0 },
  { argv: ['upload', 'discard', 'upl_0c4e2a9b7d1f3e5a6b8c9d0e1f2a3b4c', '--yes'], code: 0 },
  // The single-code checks, which the CLI's batches replaced but other clients call.
  { argv: ['api', 'POST', '/releases/validate/upc', '-f', 'upc=036000241457'], code: 0 },
  { argv: ['api', 'POST', '/releases/validate/isrc', '-f', 'isrc=GBNLR2600001'], code: 0 },
];

describe('the CLI against the real service, through a validating proxy of openapi.json', () => {
  it('sends and receives only what the document says', async () => {
    await writeWav(join(work, 'northern-sky.wav'), { seconds: 31 });
    await writeWav(join(work, 'remaster.wav'), { seconds: 32 });
    await writeFile(join(work, 'cover.jpg'), (await testImages()).good);
    await writeFile(join(work, 'tracks.yaml'), 'tracks:\n  - id: 1\n    title: Northern Sky\n    isrc: GBNLR2600001\n');
    // 40 s: 7.1 MB, 7 parts of 1 MiB.
    await writeWav(join(work, 'long.wav'), { seconds: 40 });
    await writeFile(join(work, 'long.yaml'), releaseYaml('NLR-0098', { audio: join(work, 'long.wav') }));
    const codes: string[] = [];
    for (const step of steps()) {
      const argv = step.argv.map((a) => a.replace('WORK', work));
      const token = step.as === 'artist' ? server.tokens.artist : step.as === 'nobody' ? 'rd_not_a_token' : server.tokens.label;
      const r = await run(argv, { token, ...(step.stdin !== undefined ? { stdin: step.stdin } : {}) });
      if (step.code >= 0 && r.code !== step.code)
        codes.push(`reldist ${argv.join(' ')}: exit ${r.code}, expected ${step.code}: ${r.stderr.trim().split('\n').pop()}`);
    }
    // Resolve a link of each other platform, as found by the searches above.
    for (const [search, platform] of [
      ['searchVideoChannel', 'video_b'],
      ['searchStoreC', 'store_c'],
    ] as const) {
      const found = proxy.answers.get(`${search} 200`) as { url: string }[];
      const r = await run(['artist', 'resolve', found[0]!.url, '--platform', platform, '--json']);
      if (r.code !== 0) codes.push(`reldist artist resolve ${found[0]!.url} --platform ${platform}: exit ${r.code}: ${r.stderr.trim()}`);
    }
    expect(codes).toEqual([]);
    expect(proxy.problems).toEqual([]);

    // Each operation's documented answer is shaped like the service's real answer to it.
    const misfits: string[] = [];
    const unseen: string[] = [];
    for (const [path, item] of Object.entries(proxy.doc.paths as Record<string, Record<string, any>>)) {
      for (const operation of Object.values(item)) {
        const [status, response] = Object.entries(operation.responses as Record<string, any>).find(([s]) => s.startsWith('2'))!;
        const real = proxy.answers.get(`${operation.operationId} ${status}`);
        if (real === undefined) {
          unseen.push(operation.operationId);
          continue;
        }
        const media = response.content['application/json'];
        // An answer of several shapes (an upload: a track's file or a cover) has an example of each: the real answer fits one.
        const examples: unknown[] = media.examples
          ? Object.values(media.examples as Record<string, { value: unknown }>).map((e) => e.value)
          : [media.example ?? checker.resolve(media.schema).examples?.[0]];
        const differences = examples.map((example) => shapeDifferences(example, real, `${operation.operationId} (${path})`));
        misfits.push(...(differences.find((d) => d.length === 0) ?? differences[0]!));
      }
    }
    expect(misfits).toEqual([]);
    expect(unseen).toEqual([]);
    // The run reached every operation the CLI uses, and errors of several kinds.
    const statuses = new Set(proxy.seen.map((s) => s.split(' ').pop()));
    for (const status of ['200', '201', '401', '404', '405', '409', '422']) expect(statuses, [...statuses].join(' ')).toContain(status);
  });
});

/**
 * Where an example differs in shape from a real answer: other keys, other kinds of value (null
 * matches anything: a field may be empty), the first element of lists, and the words a `kind` or
 * a `message` starts with (a UPC verdict is not an ISRC one; "Release 42 deleted." is not a
 * preference saved).
 */
function shapeDifferences(example: unknown, real: unknown, at: string): string[] {
  if (example === null || real === null) return [];
  const kind = (v: unknown) => (Array.isArray(v) ? 'array' : typeof v);
  if (kind(example) !== kind(real)) return [`${at}: example is ${kind(example)}, the service answers ${kind(real)}`];
  if (Array.isArray(example) && Array.isArray(real)) {
    return example.length > 0 && real.length > 0 ? shapeDifferences(example[0], real[0], `${at}[0]`) : [];
  }
  if (typeof example !== 'object') return [];
  const e = example as Record<string, unknown>;
  const r = real as Record<string, unknown>;
  const out: string[] = [];
  const ek = Object.keys(e).sort().join(',');
  const rk = Object.keys(r).sort().join(',');
  // A record (headers) has keys of its own; every field object must have the same ones.
  if (ek !== rk && !at.endsWith('.headers')) out.push(`${at}: example keys ${ek}, the service answers ${rk}`);
  const lead = (v: unknown) =>
    String(v)
      .replace(/[0-9]+/g, '#')
      .split(' ')
      .slice(0, 2)
      .join(' ');
  if ('kind' in e && e.kind !== r.kind) out.push(`${at}.kind: example ${String(e.kind)}, the service answers ${String(r.kind)}`);
  if (typeof e.message === 'string' && lead(e.message) !== lead(r.message))
    out.push(`${at}.message: example "${e.message}", the service answers "${String(r.message)}"`);
  for (const key of Object.keys(e)) if (key in r) out.push(...shapeDifferences(e[key], r[key], `${at}.${key}`));
  return out;
}
