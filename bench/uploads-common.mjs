// What the issue-24 upload benches (uploads-*.mjs) share: their flags and environment, a service
// to upload to, the two ways of uploading one file (`reldist track upload`, with any extra
// arguments for the client, and curl: POST for the address, then `curl -T`), and reading back
// what the service holds.
import { createWriteStream, existsSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { apiClient, benchRelease, benchRun, clientArgsFlag, runCommand, startServe, stringFlag } from './lib.mjs';

export const root = fileURLToPath(new URL('..', import.meta.url));

/**
 * The run of one bench: its folder and way out (benchRun), the build to use (`--bin`), the
 * client's extra arguments (`--client-args`), and the environment for every process it starts:
 * no RELDIST_* from the caller, no colour, NODE_EXTRA_CA_CERTS kept unless --no-extra-ca, and
 * every folder a CLI may keep state in (config, data, cache, state: a resumable upload's
 * checkpoints) inside the bench's folder, so that runs start clean and leave nothing behind.
 */
export function uploadBench(file, argv) {
  const bin = stringFlag(argv, '--bin', join(root, 'bin', 'reldist.js'));
  if (!existsSync(join(bin, '..', '..', 'dist', 'main.js'))) {
    console.error(`bench/${file}: a build is missing; run \`npm run build\` first`);
    process.exit(2);
  }
  const run = benchRun(file);
  const env = { ...process.env, NO_COLOR: '1' };
  // The client's upload settings (RELDIST_UPLOAD_PART_SIZE, RELDIST_UPLOAD_CONNECTIONS…) pass
  // through, as --client-args do; nothing else of the caller's reldist setup.
  for (const k of Object.keys(env)) if (k.startsWith('RELDIST_') && !k.startsWith('RELDIST_UPLOAD_')) delete env[k];
  if (argv.includes('--no-extra-ca')) delete env.NODE_EXTRA_CA_CERTS;
  const home = join(run.work, 'cli-home');
  for (const [k, dir] of Object.entries({
    RELDIST_CONFIG_DIR: 'config',
    XDG_CONFIG_HOME: 'xdg-config',
    XDG_DATA_HOME: 'xdg-data',
    XDG_STATE_HOME: 'xdg-state',
    XDG_CACHE_HOME: 'xdg-cache',
  })) {
    env[k] = join(home, dir);
    mkdirSync(env[k], { recursive: true });
  }
  return { ...run, bin, env, clientArgs: clientArgsFlag(argv), serviceLog: stringFlag(argv, '--service-log') };
}

/** The first line every bench prints: what ran, and whether NODE_EXTRA_CA_CERTS was set. */
export function banner(name, env, settings, clientArgs) {
  const uploadEnv = Object.keys(env)
    .filter((k) => k.startsWith('RELDIST_UPLOAD_'))
    .map((k) => `${k}=${env[k]}`);
  console.log(
    `${name}: ${settings}, client args [${[...uploadEnv, ...clientArgs].join(' ')}], node ${process.version}, NODE_EXTRA_CA_CERTS ${env.NODE_EXTRA_CA_CERTS ? 'set' : 'not set'}`,
  );
}

/**
 * A `reldist serve --sandbox` over `dataDir`, with no rate limit and upload quotas out of the
 * way (a bench's killed runs may leave whole files attached to no track, which count against
 * them); `publicUrl`: the address its upload URLs name (a proxy in front of it); `logFile`
 * (--service-log): where its stderr (warnings, errors: what went wrong inside it) is appended.
 */
export async function startUploadService(bin, dataDir, env, publicUrl, logFile) {
  const args = ['--rate-limit', 'off', '--upload-account-limit', '1TiB', '--upload-total-limit', '1TiB'];
  if (publicUrl) args.push('--public-url', publicUrl);
  const serve = await startServe(bin, dataDir, { env, args });
  if (logFile) serve.child.stderr.pipe(createWriteStream(logFile, { flags: 'a' }));
  return { ...serve, api: apiClient(serve.url, serve.token) };
}

/** A new release to upload to; returns its id. */
export async function newRelease(api) {
  return (await api('POST', '/releases', benchRelease)).id;
}

/**
 * `reldist track upload RELEASE FILE --json` plus the client's extra arguments, against `baseUrl`
 * (a proxy or the service). Resolves to runCommand's result (ms, code, signal, rssKiB…).
 */
export function cliUpload({ bin, env, baseUrl, token, releaseId, file, clientArgs = [], onStart, rssFile }) {
  return runCommand(process.execPath, [bin, 'track', 'upload', String(releaseId), file, '--json', ...clientArgs], {
    env: { ...env, RELDIST_BASE_URL: baseUrl, RELDIST_TOKEN: token },
    onStart,
    rssFile,
  });
}

/**
 * The same upload with curl, timed as a whole: POST for the address (`baseUrl`), then `curl -T`
 * to the address the service answered (its public URL). Rejects when either step fails.
 */
export async function curlUpload({ env, baseUrl, token, releaseId, file, size, rssFile }) {
  const t0 = process.hrtime.bigint();
  const ticket = await runCommand(
    'curl',
    [
      '-sS',
      '--fail-with-body',
      '-H',
      `Authorization: Bearer ${token}`,
      '-H',
      'Content-Type: application/json',
      '-X',
      'POST',
      `${baseUrl}/releases/${releaseId}/tracks/upload-url`,
      '-d',
      JSON.stringify({ filename: 'track.wav', content_type: 'audio/wav', size }),
    ],
    { env },
  );
  if (ticket.code !== 0) throw new Error(`curl POST …/upload-url failed: ${ticket.stdout}${ticket.stderr}`);
  const { upload_url: url } = JSON.parse(ticket.stdout);
  const put = await runCommand('curl', ['-sS', '--fail-with-body', '-o', '/dev/null', '-T', file, '-H', 'Content-Type: audio/wav', url], { env, rssFile });
  if (put.code !== 0) throw new Error(`curl -T failed (${put.code}): ${put.stderr}`);
  return { ...put, ms: Number(process.hrtime.bigint() - t0) / 1e6, putMs: put.ms };
}

/** The release's tracks (GET …/tracks), as the service holds them. */
export async function tracksOf(api, releaseId) {
  const answer = await api('GET', `/releases/${releaseId}/tracks`);
  return Array.isArray(answer) ? answer : (answer.tracks ?? answer.data ?? []);
}

/**
 * Bytes on the disk (allocated blocks, so a file written at offsets counts what was written, not
 * its length) of every file under `dir`, recursively, but the database's: what a service holds
 * of uploads.
 */
export function bytesUnder(dir, skip = /^reldist\.sqlite/) {
  let total = 0;
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return 0;
  }
  for (const e of entries) {
    if (skip.test(e.name)) continue;
    const p = join(dir, e.name);
    try {
      total += e.isDirectory() ? bytesUnder(p, skip) : statSync(p).blocks * 512;
    } catch {
      // Gone between the listing and the stat (a part renamed into place).
    }
  }
  return total;
}

/**
 * A clean upload must have sent at least the file through the bench's proxy: fewer bytes mean the
 * client reached the service another way (upload URLs not built from the service's public URL),
 * and the figures would not be the link's. Returns the message to fail with, or undefined.
 */
export function bypassed(sentBytes, fileBytes, what) {
  return sentBytes < fileBytes ? `${what} sent ${sentBytes} bytes through the proxy, less than the file's ${fileBytes}: some went around it` : undefined;
}

/** The last line of a failed command's stderr, for a one-line report. */
export const lastLine = (text) => text.trim().split('\n').pop() ?? '';
