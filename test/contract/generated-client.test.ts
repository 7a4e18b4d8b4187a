// Clients generated from openapi.json by two mainstream generators, as a third party would make
// them: openapi-typescript (with openapi-fetch) and swagger-typescript-api. A release's lifecycle
// written the natural way (ids from answers passed straight back, bodies as documented, no casts)
// must compile with TypeScript 5's `tsc --strict` and run against the service.
// The generators need TypeScript 5's JS API, which the project's native TypeScript has not: they
// live in their own package, test/generated-client (`npm ci --prefix test/generated-client`).
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { copyFile, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeWav } from '../helpers/audio.js';
import { api, startTestServer, type TestServer } from '../helpers/server.js';

const run = promisify(execFile);
const pkg = resolve('test/generated-client');
const bin = (name: string) => join(pkg, 'node_modules', '.bin', name);
const lifecycles = ['lifecycle-openapi-fetch.ts', 'lifecycle-swagger-typescript-api.ts'];

let dir: string;
let server: TestServer;

beforeAll(async () => {
  if (!existsSync(bin('openapi-typescript')) || !existsSync(bin('swagger-typescript-api')) || !existsSync(bin('tsc'))) {
    throw new Error('the generated-client check has no generators: run `npm ci --prefix test/generated-client` first');
  }
  dir = await mkdtemp(join(tmpdir(), 'reldist-generated-'));
  // The generated code and the lifecycles resolve their libraries from the package's node_modules.
  await symlink(join(pkg, 'node_modules'), join(dir, 'node_modules'), 'dir');
  await writeFile(join(dir, 'package.json'), '{"type":"module"}\n');
  await writeFile(
    join(dir, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        strict: true,
        noUncheckedIndexedAccess: true,
        target: 'ES2022',
        module: 'NodeNext',
        moduleResolution: 'NodeNext',
        lib: ['ES2022', 'DOM'],
        types: ['node'],
        skipLibCheck: true,
        outDir: 'out',
      },
      files: lifecycles,
    }),
  );
  for (const file of lifecycles) await copyFile(join(pkg, file), join(dir, file));
  const openapi = resolve('openapi.json');
  await run(bin('openapi-typescript'), [openapi, '-o', join(dir, 'generated', 'schema.d.ts')], { timeout: 60_000 });
  await run(bin('swagger-typescript-api'), ['generate', '-p', openapi, '-o', join(dir, 'generated'), '-n', 'sta.ts', '--silent', '--enum-style=union'], {
    timeout: 60_000,
  });
  server = await startTestServer();
  await writeFile(join(dir, 'track.wav'), makeWav({ seconds: 30 }));
}, 120_000);

afterAll(async () => {
  await server?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('clients generated from openapi.json', () => {
  it('compile with tsc --strict, without a cast, on a lifecycle written the natural way', async () => {
    // Any diagnostic fails the compile (exit 2), printed in full.
    const compiled = await run(bin('tsc'), ['-p', join(dir, 'tsconfig.json')], { timeout: 120_000 }).then(
      () => '',
      (err: { stdout?: string }) => err.stdout ?? String(err),
    );
    expect(compiled).toBe('');
  }, 150_000);

  it.each([
    ['openapi-fetch', 'lifecycle-openapi-fetch.js', 41],
    ['swagger-typescript-api', 'lifecycle-swagger-typescript-api.js', 18],
  ])(
    'run the lifecycle through %s against the service',
    async (_name, file, calls) => {
      const { stdout } = await run(process.execPath, [join(dir, 'out', file)], {
        timeout: 60_000,
        env: { ...process.env, RELDIST_URL: server.url, RELDIST_TOKEN: server.tokens.label, RELDIST_WAV: join(dir, 'track.wav') },
      });
      const result = JSON.parse(stdout);
      expect(result).toMatchObject({ calls, me: 'label', submitted: true, status: 'in_review', upcValid: true, isrcValid: true });
      // What the client reported is what the service holds.
      const release = await api(server, server.tokens.label, 'GET', `/releases/${result.releaseId}`);
      expect([release.status, release.body.status, release.body.tracks.length]).toEqual([200, 'in_review', 1]);
      if (file === 'lifecycle-openapi-fetch.js') {
        expect(result).toMatchObject({
          lookups: [true, true, true, true],
          trackCount: 1,
          codes: 1,
          dryRunProblems: 0,
          listed: 'in_review',
          resolved: true,
          removed: true,
          webhook: [true, false, true, true],
        });
        expect(result.batch).toEqual([
          [result.releaseId, 200],
          [expect.any(Number), 200],
        ]);
      }
    },
    90_000,
  );
});
