// The `release create` wizard in-process, its prompts answered by a script: each answer is held
// against the service's own rules as it is given (titles, UPC, dates, audio files), and Ctrl-C at
// any prompt or any step of the creation leaves no draft behind.
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError, createClient, type ApiClient } from '../../src/client/index.js';
import { CliError, ExitCode } from '../../src/cli/errors.js';
import type { IO } from '../../src/cli/io.js';
import type { Prompter } from '../../src/cli/lazy.js';
import { runCli } from '../../src/cli/run-cli.js';
import { testImages } from '../helpers/images.js';
import { useCli, writeWav } from './cli-harness.js';

const cli = useCli();
let work: string;

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'reldist-wizard-'));
  await cp('examples/first-release/audio/first-light.flac', join(work, 'good.flac'));
  await writeWav(join(work, 'mono.wav'), { seconds: 31, channels: 1 });
  await writeWav(join(work, 'short.wav'), { seconds: 10 });
  await writeFile(join(work, 'notes.wav'), 'these are my notes, not audio\n'.repeat(20));
  const images = await testImages();
  await writeFile(join(work, 'cover.jpg'), images.good);
  await writeFile(join(work, 'cmyk.jpg'), images.cmyk);
  await writeFile(join(work, 'moving.gif'), images.animated);
});
afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

class Sink extends Writable {
  text = '';
  override _write(chunk: Buffer | string, _enc: BufferEncoding, cb: () => void): void {
    this.text += chunk.toString();
    cb();
  }
}

/** An answer; undefined takes the prompt's default (or the first choice). */
type Answer = string | boolean | undefined;

interface Script {
  answers: Answer[];
  /** Ctrl-C at this prompt (0-based): the signal is aborted and the prompt throws as inquirer does. */
  abortAtPrompt?: number;
  /** Ctrl-C during this client call: before it is sent, or once its answer came back (the answer lost). */
  abortAtCall?: { endpoint: string; when: 'before' | 'after' };
  /** This client call fails as the service would fail it (503). */
  failAtCall?: string;
  /** Extra arguments after `release create`. */
  args?: string[];
}

interface WizardRun {
  code: number;
  stderr: string;
  asked: string[];
  /** Each answer a prompt refused, with the reason it gave. */
  refused: { message: string; answer: string; reason: string }[];
}

async function wizard(script: Script): Promise<WizardRun> {
  const controller = new AbortController();
  const ctrlC = () => controller.abort(new CliError('interrupted', { exitCode: ExitCode.interrupted }));
  const queue = [...script.answers];
  const asked: string[] = [];
  const refused: WizardRun['refused'] = [];
  const next = (message: string): Answer => {
    if (asked.length - 1 === script.abortAtPrompt) {
      ctrlC();
      throw Object.assign(new Error('Prompt was aborted'), { name: 'AbortPromptError' });
    }
    if (queue.length === 0) throw new Error(`the script has no answer left for "${message}"`);
    return queue.shift();
  };
  const prompter = {
    async input(config: { message: string; default?: string; validate?: (v: string) => true | string }) {
      asked.push(config.message);
      for (;;) {
        const a = next(config.message);
        const v = a === undefined ? (config.default ?? '') : String(a);
        const ok = config.validate ? config.validate(v) : true;
        if (ok === true) return v;
        refused.push({ message: config.message, answer: v, reason: ok });
      }
    },
    async select(config: { message: string; choices: { value: string }[]; default?: string }) {
      asked.push(config.message);
      const a = next(config.message);
      return a === undefined ? (config.default ?? config.choices[0]!.value) : String(a);
    },
    async confirm(config: { message: string; default?: boolean }) {
      asked.push(config.message);
      const a = next(config.message);
      return a === undefined ? Boolean(config.default) : Boolean(a);
    },
    async password() {
      throw new Error('the wizard asks for no secret');
    },
  } as unknown as Prompter;

  const real = createClient({ baseUrl: cli.server.url, token: cli.server.tokens.label, signal: controller.signal });
  const client = new Proxy(real, {
    get(target, prop, receiver) {
      if (prop !== 'call') return Reflect.get(target, prop, receiver);
      return async (endpoint: string, options?: unknown) => {
        const at = script.abortAtCall?.endpoint === endpoint ? script.abortAtCall.when : undefined;
        if (at === 'before') ctrlC();
        if (script.failAtCall === endpoint) {
          throw new ApiError({ status: 503, code: 'unavailable', message: 'the service is unavailable', method: 'PATCH', path: '/releases' });
        }
        const res = await (target.call as (e: string, o?: unknown) => Promise<unknown>)(endpoint, options);
        if (at === 'after') {
          ctrlC();
          throw controller.signal.reason;
        }
        return res;
      };
    },
  }) as ApiClient;

  const stderr = new Sink();
  const io: IO = { stdin: new PassThrough(), stdout: new Sink(), stderr, stdinIsTTY: true, stdoutIsTTY: true, stderrIsTTY: true };
  const env = {
    RELDIST_BASE_URL: cli.server.url,
    RELDIST_TOKEN: cli.server.tokens.label,
    RELDIST_CONFIG_DIR: cli.configDir,
    RELDIST_DATA_DIR: join(cli.configDir, 'data'),
    HOME: cli.configDir,
    NO_COLOR: '1',
  };
  const code = await runCli(['release', 'create', ...(script.args ?? [])], {
    io,
    env,
    signal: controller.signal,
    services: { prompts: async () => prompter, client: async () => client },
  });
  return { code, stderr: stderr.text, asked, refused };
}

async function releaseIds(): Promise<number[]> {
  return (await cli.json<{ id: number }[]>(['release', 'list'])).map((r) => r.id);
}

/** The answers of a complete run with one good track, in the order the wizard asks. */
function goodAnswers(artist = 'Nina Vale', profiles: Answer[] = [false]): Answer[] {
  return [
    'single', // Type
    'Night Drive', // Title
    '', // Version
    artist,
    '', // Primary artist, then done
    '', // Featured
    undefined, // Label (the default)
    '', // Catalog number
    'Electronic',
    'en',
    'not_explicit', // Genre, Language, Explicit
    undefined,
    undefined, // ℗, ©
    '', // UPC
    join(work, 'good.flac'),
    'Night Drive',
    undefined, // Audio file, its title, composer
    '', // no more tracks
    '', // Cover: later
    '2030-01-15', // Release date
    ...profiles, // the profiles: saved ones (replace?), then find?, one choice per platform
    true, // Create?
  ];
}

describe('release create wizard', () => {
  it("holds each answer against the service's rules as it is given, and asks again with the reason", async () => {
    const before = await releaseIds();
    const answers = goodAnswers();
    answers.splice(1, 1, 'Night Drive (Official)', 'Night Drive feat. Jo', 'Night Drive');
    const i = answers.findIndex((a, k) => a === '' && k > 10); // the UPC's answer
    answers.splice(i, 1, '036000291453', '036000291452');
    const f = answers.indexOf(join(work, 'good.flac'));
    answers.splice(f, 0, join(work, 'mono.wav'), join(work, 'notes.wav'), join(work, 'short.wav'));
    const d = answers.indexOf('2030-01-15');
    answers.splice(d, 0, '2027-13-01', '2027-02-30');
    const r = await wizard({ answers });
    expect(r.code, r.stderr).toBe(0);
    const reasons = r.refused.map((x) => `${x.answer} → ${x.reason}`);
    expect(reasons).toEqual([
      expect.stringMatching(/^Night Drive \(Official\) → .*contains "official"/i),
      expect.stringMatching(/^Night Drive feat\. Jo → .*credits an artist in the title/),
      expect.stringMatching(/^036000291453 → .*check digit/i),
      expect.stringMatching(/^2027-13-01 → 2027-13-01 is not a date in the calendar$/),
      expect.stringMatching(/^2027-02-30 → 2027-02-30 is not a date in the calendar$/),
    ]);
    expect(r.stderr).toContain(`mono.wav: the audio has 1 channel; it must be stereo (2 channels)`);
    expect(r.stderr).toMatch(/notes\.wav: the file is not audio/);
    expect(r.stderr).toMatch(/short\.wav: .*30/);
    const after = await releaseIds();
    expect(after.length).toBe(before.length + 1);
    const created = await cli.json(['release', 'get', String(after.find((id) => !before.includes(id)))]);
    expect(created).toMatchObject({ title: 'Night Drive', upc: expect.stringContaining('036000291452'), track_count: 1 });
  });

  it('asks for the cover again while the service would refuse it or the submit would block it, then uploads and sets it', async () => {
    const before = await releaseIds();
    const answers = goodAnswers();
    const c = answers.indexOf('2030-01-15') - 1; // the cover's answer
    answers.splice(c, 1, join(work, 'moving.gif'), join(work, 'cmyk.jpg'), join(work, 'cover.jpg'));
    const r = await wizard({ answers });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/moving\.gif: the image is animated \(2 frames\)/);
    expect(r.stderr).toMatch(/cmyk\.jpg: CMYK: export it as RGB/);
    expect(r.stderr).toMatch(/Cover: {5}.*cover\.jpg/);
    const id = (await releaseIds()).find((x) => !before.includes(x));
    expect((await cli.json(['release', 'get', String(id)])).artwork).toMatchObject({ verified: true, filename: 'cover.jpg', width: 3000 });
  });

  it('Ctrl-C at any prompt leaves no draft behind', async () => {
    const before = await releaseIds();
    const prompts = goodAnswers().length;
    for (let k = 0; k < prompts; k += 3) {
      const r = await wizard({ answers: goodAnswers(), abortAtPrompt: k });
      expect(r.code, `${k}: ${r.stderr}`).toBe(ExitCode.interrupted);
    }
    expect(await releaseIds()).toEqual(before);
  });

  it('Ctrl-C at any step of the creation leaves no draft behind', async () => {
    const before = await releaseIds();
    const steps: Script['abortAtCall'][] = [
      { endpoint: 'createRelease', when: 'before' },
      { endpoint: 'createRelease', when: 'after' },
      { endpoint: 'createTrackUploadUrl', when: 'before' },
      { endpoint: 'replaceReleaseTracks', when: 'after' },
      { endpoint: 'updateReleaseDelivery', when: 'after' },
    ];
    for (const step of steps) {
      const r = await wizard({ answers: goodAnswers(), abortAtCall: step });
      expect(r.code, `${JSON.stringify(step)}: ${r.stderr}`).toBe(ExitCode.interrupted);
      expect(r.stderr, JSON.stringify(step)).toMatch(/interrupted: .*(nothing was created|was deleted)/);
    }
    expect(await releaseIds()).toEqual(before);
  });

  it("shows the artist's saved profiles and replaces them only after a yes", async () => {
    const saved = async () => {
      const c = createClient({ baseUrl: cli.server.url, token: cli.server.tokens.label });
      const prefs = await c.call('getLabelPreferences', { query: { search: 'Ada Stone', perPage: 100 } });
      await c.close();
      return prefs.artists.find((a) => a.name === 'Ada Stone')?.platforms.map((p) => `${p.platform}:${p.mode}`) ?? [];
    };
    // First release: nothing saved yet, so no question about replacing; one choice per platform.
    const first = await wizard({ answers: goodAnswers('Ada Stone', [true, 'new', 'new', 'skip']) });
    expect(first.code, first.stderr).toBe(0);
    expect(first.asked.some((m) => m.startsWith('Replace'))).toBe(false);
    expect(await saved()).toEqual(['streaming_a:new', 'video_b:new']);
    // Second: they are shown; "no" keeps them as they are.
    const kept = await wizard({ answers: goodAnswers('Ada Stone', [false]) });
    expect(kept.code, kept.stderr).toBe(0);
    expect(kept.stderr).toContain("Ada Stone's saved profiles:\n    streaming service A: create a new profile\n    video service B: create a new profile\n");
    expect(kept.asked).toContain("Replace Ada Stone's saved profiles?");
    expect(await saved()).toEqual(['streaming_a:new', 'video_b:new']);
    // Third: "yes", then the platforms chosen again replace theirs ("decide later" keeps what is saved).
    const replaced = await wizard({ answers: goodAnswers('Ada Stone', [true, true, 'skip', 'skip', 'new']) });
    expect(replaced.code, replaced.stderr).toBe(0);
    expect(await saved()).toEqual(['streaming_a:new', 'video_b:new', 'store_c:new']);
  });

  it('a step failing after the draft exists keeps the draft and saves every answer as a release file', async () => {
    const before = await releaseIds();
    const answers = goodAnswers('Nina Vale', [false]);
    answers[answers.indexOf(undefined) + 1] = 'NLR-0777'; // the catalog number, after the label's default
    const file = join(work, 'night-drive.yaml');
    const r = await wizard({ answers: [...answers, true, file], failAtCall: 'updateReleaseDelivery' });
    expect(r.code, r.stderr).not.toBe(0);
    expect(r.asked.slice(-2)).toEqual(['Save your answers as a release file?', 'Save to:']);
    const after = await releaseIds();
    const kept = after.find((id) => !before.includes(id));
    expect(kept).toBeDefined();
    expect(r.stderr).toContain(`the draft release ${kept} "Night Drive" is kept with what was done`);
    expect(r.stderr).toContain(`Saved the answers to ${file}`);
    expect(r.stderr).toContain(`\`reldist release apply ${file}\` finishes the draft ${kept}`);
    // The file holds every answer and is a release file the commands accept.
    const text = await readFile(file, 'utf8');
    expect(text).toMatch(/catalog_number: NLR-0777/);
    expect(text).toMatch(/file: good\.flac/);
    expect(text).toMatch(/release_date: "?2030-01-15"?/);
    const check = await cli.run(['release', 'create', '--file', file, '--check']);
    expect(check.code, check.stderr).toBe(0);
    const apply = await cli.run(['release', 'apply', file, '--yes']);
    expect(apply.code, apply.stderr).toBe(0);
    expect(await releaseIds()).toEqual(after);
    expect(await cli.json(['release', 'get', String(kept)])).toMatchObject({ delivery: { release_date: '2030-01-15' }, track_count: 1 });
  });

  it('--save writes the answers on purpose, before anything is created', async () => {
    const file = join(work, 'on-purpose.json');
    const r = await wizard({ answers: goodAnswers(), args: ['--save', file] });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(`Saved the answers to ${file}`);
    const saved = JSON.parse(await readFile(file, 'utf8'));
    expect(saved).toMatchObject({
      type: 'single',
      title: 'Night Drive',
      tracks: [{ file: 'good.flac', title: 'Night Drive' }],
      delivery: { release_date: '2030-01-15' },
    });
  });
});
