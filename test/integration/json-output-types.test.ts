// Every command's --json output, against the real reference service, held to one rule per field
// across commands: ids are numbers, `status` is a release state, keys are snake_case.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { releaseStatuses } from '../../src/contract/wire-values.js';
import { makeWav } from '../helpers/audio.js';
import { releaseYaml } from '../helpers/release-yaml.js';
import { useCli } from './cli-harness.js';
import { draftFlags } from './release-fixtures.js';

const cli = useCli();
let work: string;

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'reldist-json-'));
  await writeFile(join(work, 'a.wav'), makeWav({ seconds: 30 }));
  await writeFile(join(work, 'b.wav'), makeWav({ seconds: 31 }));
  await mkdir(join(work, 'catalog'));
  await writeFile(join(work, 'catalog', 'one.yaml'), releaseYaml('JSON-0001', { audio: join(work, 'a.wav') }));
});
afterAll(async () => {
  if (work) await rm(work, { recursive: true, force: true });
});

/**
 * `id`s that are names, not the service's entities: a platform's (`streaming_a`) and a profile's on
 * an external platform (that platform's own id). `content_id` is a setting, not an id.
 */
const NAMES_NOT_IDS = /(\.stores\[\d+\]|\.artist_platforms\[\d+\]|\.profile)\.id$/;

/** Every breach of the rules in a JSON value, as `path: what`; `names`: its keys are setting names (`config list`). */
function breaches(value: unknown, path = '$', names = false): string[] {
  if (Array.isArray(value)) return value.flatMap((v, i) => breaches(v, `${path}[${i}]`));
  if (value === null || typeof value !== 'object') return [];
  const out: string[] = [];
  for (const [k, v] of Object.entries(value)) {
    const at = `${path}.${k}`;
    if (!(names ? /^[a-z0-9_.]+$/ : /^[a-z0-9_]+$/).test(k)) out.push(`${at}: key not snake_case`);
    const isId = (k === 'id' && !NAMES_NOT_IDS.test(at)) || (k.endsWith('_id') && k !== 'request_id' && k !== 'content_id');
    if (isId && v !== null && typeof v !== 'number') out.push(`${at}: id ${JSON.stringify(v)} is not a number`);
    if (k === 'status' && v !== null && !(releaseStatuses as readonly unknown[]).includes(v))
      out.push(`${at}: status ${JSON.stringify(v)} is not a release state`);
    out.push(...breaches(v, at));
  }
  return out;
}

/** One JSON value, or JSON lines. */
function parse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text
      .trim()
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l));
  }
}

describe('--json field types', () => {
  it('the rule finds what it is meant to find', () => {
    expect(breaches({ release_id: '42', status: null, labelName: 'x', tracks: [{ id: 1, status: 'pending' }] })).toEqual([
      '$.release_id: id "42" is not a number',
      '$.labelName: key not snake_case',
      '$.tracks[0].status: status "pending" is not a release state',
    ]);
  });

  it('every command: ids numbers, status a release state, keys snake_case', async () => {
    const a = join(work, 'a.wav');
    const b = join(work, 'b.wav');
    // Each row: the command (without --json) and the exit codes it may end with; its stdout is checked.
    const table: [string[], number[], { names?: true }?][] = [
      [['me'], [0]],
      [['auth', 'status'], [0]],
      [['config', 'list'], [0], { names: true }],
      [['lookup', 'countries'], [0]],
      [['lookup', 'genres'], [0]],
      [['lookup', 'languages'], [0]],
      [['lookup', 'platforms'], [0]],
      [['artist', 'search', 'Nina Vale'], [0]],
      [['prefs', 'label', '--add-artist', 'Kai Moreno'], [0]],
      [['prefs', 'label'], [0]],
      [['label', 'artists', 'list'], [0]],
      [['label', 'artists', 'get', '1'], [0]],
      [['release', 'create', ...draftFlags], [0]], // release 1
      [['release', 'create', '--file', 'examples/first-release/release.yaml', '--submit'], [0]], // release 2
      [
        ['release', 'create', '--file', 'examples/first-release/release.yaml', '--catalog-number', 'NLR-0099', '--check'],
        [0, 3],
      ],
      [['release', 'list'], [0]],
      [['release', 'get', '1'], [0]],
      [['release', 'edit', '1', '--title', 'Northern Sea'], [0]],
      [['release', 'submit', '1', '--dry-run'], [3]],
      [['release', 'submit', '1'], [3]],
      [['release', 'submit', '1', '2', '999', '--dry-run'], [5]],
      [['release', 'submit', '2'], [0]],
      [['release', 'apply', join(work, 'catalog'), '--plan'], [8]],
      [['release', 'apply', join(work, 'catalog')], [0]],
      // Tracks 1 and 2 are release 2's, 3 the applied release's: the upload makes track 4.
      [['track', 'upload', '1', a], [0]],
      [['track', 'list', '1'], [0]],
      [['track', 'get', '1', '4'], [0]],
      [['track', 'edit', '1', '4', '--title', 'Tide'], [0]],
      [['track', 'replace', '1', '4', b], [0]],
      [['track', 'set', '1', '--file', join(work, 'tracks.json')], [0]], // the list `track list` printed, as the docs pipe it
      [['track', 'check', a, b], [0]],
      [['sandbox', 'approve', '2'], [0]],
      [['sandbox', 'approve', '2', '1'], [9]],
      [['release', 'watch', '2', '--for', 'reviewed', '--timeout', '20s'], [0]],
      [['events', 'list'], [0]],
      [['events', 'tail', '-n', '5'], [0]],
      [['release', 'history', '2'], [0]],
      [['validate', 'upc', '036000291452', '036000291453'], [3]],
      [['validate', 'isrc', 'US-SKG-19-12345'], [0]],
      [['release', 'delete', '1', '--yes'], [0]],
      [['label', 'artists', 'remove', '1', '--yes'], [0]],
    ];
    // `config set` prints nothing (a setting written): it only gives `config list` a row.
    expect((await cli.run(['config', 'set', 'timeout', '60'])).code).toBe(0);
    const found: string[] = [];
    for (const [argv, codes, o] of table) {
      const r = await cli.run([...argv, '--json']);
      expect(codes, `${argv.join(' ')}: exit ${r.code}\n${r.stderr}`).toContain(r.code);
      expect(r.stdout.trim(), `${argv.join(' ')} printed nothing`).not.toBe('');
      found.push(...breaches(parse(r.stdout), '$', o?.names).map((x) => `${argv.join(' ')}: ${x}`));
      if (argv[0] === 'track' && argv[1] === 'list') {
        // As the docs do it: `track list 42 --json | jq 'map({id, title, isrc})' | reldist track set 42 --file -`.
        const tracks: { id: unknown; title: unknown; isrc: unknown }[] = JSON.parse(r.stdout);
        await writeFile(join(work, 'tracks.json'), JSON.stringify(tracks.map(({ id, title, isrc }) => ({ id, title, isrc }))));
      }
      // The error of a --json run is one JSON object on stderr, held to the same rules.
      if (r.code !== 0 && r.stderr.trim() !== '') found.push(...breaches(parse(r.stderr)).map((x) => `${argv.join(' ')} (stderr): ${x}`));
    }
    expect(found).toEqual([]);
  });
});
