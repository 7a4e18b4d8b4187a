// The `release create` wizard in-process, its prompts answered by a script: each answer is held
// against the service's own rules as it is given (titles, UPC, dates, audio files, the catalog
// number against the user's releases), Ctrl-C at any prompt or any step of the creation leaves no
// draft behind, and whatever fails after the questions keeps the answers in a release file.
// The wizard writes that file in the current folder: these tests run in a temporary one.
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
const startedIn = process.cwd();

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
  process.chdir(work);
});
afterAll(async () => {
  process.chdir(startedIn);
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
  /** Runs just before the first call of this endpoint (someone else's change meanwhile). */
  beforeCall?: { endpoint: string; run(): Promise<void> };
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
    async input(config: { message: string; default?: string; validate?: (v: string) => true | string | Promise<true | string> }) {
      asked.push(config.message);
      for (;;) {
        const a = next(config.message);
        const v = a === undefined ? (config.default ?? '') : String(a);
        const ok = config.validate ? await config.validate(v) : true;
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
        const before = script.beforeCall?.endpoint === endpoint ? script.beforeCall : undefined;
        if (before) {
          script.beforeCall = undefined;
          await before.run();
        }
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
    // Audio files too are refused at their prompt (not taken, then complained about).
    expect(reasons).toEqual([
      expect.stringMatching(/^Night Drive \(Official\) → .*contains "official"/i),
      expect.stringMatching(/^Night Drive feat\. Jo → .*credits an artist in the title/),
      expect.stringMatching(/^036000291453 → .*check digit/i),
      expect.stringMatching(/mono\.wav → the audio has 1 channel; it must be stereo \(2 channels\)$/),
      expect.stringMatching(/notes\.wav → the file is not audio/),
      expect.stringMatching(/short\.wav → .*30/),
      expect.stringMatching(/^2027-13-01 → 2027-13-01 is not a date in the calendar$/),
      expect.stringMatching(/^2027-02-30 → 2027-02-30 is not a date in the calendar$/),
    ]);
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
    expect(r.refused.map((x) => `${x.answer} → ${x.reason}`)).toEqual([
      expect.stringMatching(/moving\.gif → the image is animated \(2 frames\)/),
      expect.stringMatching(/cmyk\.jpg → CMYK: export it as RGB/),
    ]);
    expect(r.stderr).toMatch(/Cover: {5}.*cover\.jpg/);
    const id = (await releaseIds()).find((x) => !before.includes(x));
    expect((await cli.json(['release', 'get', String(id)])).artwork).toMatchObject({ verified: true, filename: 'cover.jpg', width: 3000 });
  });

  it('refuses at the audio prompt a file with the same audio as an earlier track (the same bytes under another name), and asks again', async () => {
    await cp(join(work, 'good.flac'), join(work, 'renamed copy.flac'));
    await writeWav(join(work, 'second.wav'), { seconds: 31, hz: 220 });
    const before = await releaseIds();
    const answers = goodAnswers();
    const more = answers.indexOf(join(work, 'good.flac')) + 3; // after track 1's file, title and composer: "no more tracks"
    answers.splice(more, 0, join(work, 'renamed copy.flac'), join(work, 'second.wav'), 'Second Light', undefined);
    const r = await wizard({ answers });
    expect(r.code, r.stderr).toBe(0);
    expect(r.refused).toEqual([
      {
        message: expect.stringMatching(/^Audio file for track 2 /),
        answer: join(work, 'renamed copy.flac'),
        reason: 'the same audio as track 1 (good.flac); each track needs its own recording',
      },
    ]);
    // Asked again for track 2 (not taken and complained about later): the next file is track 2.
    expect(r.asked.filter((m) => m.startsWith('Audio file for track 2 ')).length).toBe(1);
    expect(r.asked).toContain('Title of track 2:');
    const id = (await releaseIds()).find((x) => !before.includes(x));
    const tracks = await cli.json<{ title: string; file: { filename: string; sha256: string } }[]>(['track', 'list', String(id)]);
    expect(tracks.map((t) => [t.title, t.file.filename])).toEqual([
      ['Night Drive', 'good.flac'],
      ['Second Light', 'second.wav'],
    ]);
    expect(tracks[0]!.file.sha256).not.toBe(tracks[1]!.file.sha256);
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
      // After Ctrl-C nothing more is asked: the answers are written under a free name, and named.
      expect(r.asked.at(-1)).toBe('Create this release?');
      const file = /Saved your answers to (\S+)/.exec(r.stderr)?.[1];
      expect(file, r.stderr).toMatch(/^night-drive(-\d+)?\.yaml$/);
      expect(r.stderr).toContain(`hint: your answers are in ${file}: \`reldist release create --file ${file}\` creates the release from them`);
      await expect(readFile(join(work, file!), 'utf8')).resolves.toMatch(/title: Night Drive/);
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
    // A file of that name exists already: it is left alone, and the next free name is used.
    await writeFile(join(work, 'night-drive.yaml'), 'mine\n');
    await rm(join(work, 'night-drive-2.yaml'), { force: true });
    const r = await wizard({ answers: [...answers, true], failAtCall: 'updateReleaseDelivery' });
    expect(r.code, r.stderr).not.toBe(0);
    expect(r.asked.at(-1)).toBe('Save your answers to night-drive-2.yaml (a release file)?');
    expect(await readFile(join(work, 'night-drive.yaml'), 'utf8')).toBe('mine\n');
    const after = await releaseIds();
    const kept = after.find((id) => !before.includes(id));
    expect(kept).toBeDefined();
    expect(r.stderr).toContain(`the draft release ${kept} "Night Drive" is kept with what was done`);
    expect(r.stderr).toContain('Saved your answers to night-drive-2.yaml');
    expect(r.stderr).toContain(`\`reldist release apply night-drive-2.yaml\` finishes the draft ${kept}`);
    // The file holds every answer and is a release file the commands accept.
    const file = join(work, 'night-drive-2.yaml');
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

  it('the create refused before any draft exists: the answers are offered as a file, and "no" keeps nothing', async () => {
    const before = await releaseIds();
    const title = 'Refused At Create';
    const answers = goodAnswers();
    answers[1] = title;
    answers[answers.indexOf('Night Drive')] = title; // the track's title
    const r = await wizard({ answers: [...answers, true], failAtCall: 'createRelease' });
    expect(r.code, r.stderr).toBe(ExitCode.failure);
    expect(r.asked.at(-1)).toBe('Save your answers to refused-at-create.yaml (a release file)?');
    expect(r.stderr).toMatch(
      /hint: .*your answers are in refused-at-create\.yaml: `reldist release create --file refused-at-create\.yaml` creates the release from them\n$/,
    );
    expect(await releaseIds()).toEqual(before);
    // The file makes the release the wizard could not.
    const made = await cli.run(['release', 'create', '--file', join(work, 'refused-at-create.yaml')]);
    expect(made.code, made.stderr).toBe(0);
    // Declined: no file, and the error is the failure as it was.
    const declined = await wizard({ answers: [...answers, false], failAtCall: 'createRelease' });
    expect(declined.code).toBe(ExitCode.failure);
    expect(declined.stderr).not.toContain('your answers are in');
    await expect(readFile(join(work, 'refused-at-create-2.yaml'))).rejects.toThrow(/ENOENT/);
  });

  it('with a catalog number, the saved answers go on with apply (which finds a release the failed run made after all)', async () => {
    const answers = goodAnswers();
    answers[1] = 'Apply Me';
    answers[answers.indexOf('Night Drive')] = 'Apply Me';
    answers[answers.indexOf(undefined) + 1] = 'APPLY-9';
    const r = await wizard({ answers: [...answers, true], failAtCall: 'createRelease' });
    expect(r.code, r.stderr).toBe(ExitCode.failure);
    expect(r.stderr).toContain('your answers are in apply-me.yaml: `reldist release apply apply-me.yaml` creates the release from them (safe to run again)');
    const applied = await cli.run(['release', 'apply', join(work, 'apply-me.yaml'), '--yes']);
    expect(applied.code, applied.stderr).toBe(0);
    expect(await cli.json(['release', 'list', '--catalog-number', 'APPLY-9'])).toMatchObject([{ title: 'Apply Me' }]);
  });

  it('refuses a catalog number in use at its prompt, naming the release and the commands that update it', async () => {
    const holder = await cli.json<{ id: number }>([
      'release',
      'create',
      '--type',
      'single',
      '--title',
      'Held Number',
      '--artist',
      'Ola Hart',
      '--label',
      'NLR',
      '--catalog-number',
      'HELD-01',
    ]);
    const answers = goodAnswers();
    const c = answers.indexOf(undefined) + 1; // the catalog number, after the label's default
    answers.splice(c, 1, 'held-01', 'FREE-01');
    const r = await wizard({ answers });
    expect(r.code, r.stderr).toBe(0);
    expect(r.refused.map((x) => `${x.answer} → ${x.reason}`)).toEqual([
      `held-01 → catalog number held-01 is already release ${holder.id} "Held Number" (draft): update that one with \`reldist release edit cat:held-01 …\` or \`reldist release apply FILE\`; here, type another number or Enter for none`,
    ]);
    expect(r.stderr).not.toContain('could not check');
  });

  it('goes on when the catalog number cannot be checked at its prompt, and says so', async () => {
    const answers = goodAnswers();
    answers[answers.indexOf(undefined) + 1] = 'UNCHECKED-1';
    const r = await wizard({ answers, failAtCall: 'listReleases' });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/ {2}could not check UNCHECKED-1 against your releases \(.+\); it is checked again when the release is created\n/);
  });

  it('a catalog number taken between its prompt and the create: the answers are saved, and the error names the holder and apply', async () => {
    const answers = goodAnswers();
    answers[1] = 'Taken Meanwhile';
    answers[answers.indexOf('Night Drive')] = 'Taken Meanwhile';
    answers[answers.indexOf(undefined) + 1] = 'RACE-01';
    let holderId = 0;
    const r = await wizard({
      answers: [...answers, true],
      beforeCall: {
        endpoint: 'createRelease',
        run: async () => {
          holderId = (
            await cli.json<{ id: number }>([
              'release',
              'create',
              '--type',
              'single',
              '--title',
              'Got There First',
              '--artist',
              'Ola Hart',
              '--label',
              'NLR',
              '--catalog-number',
              'RACE-01',
            ])
          ).id;
        },
      },
    });
    expect(r.code, r.stderr).toBe(ExitCode.failure);
    expect(r.stderr).toContain(`error: catalog number RACE-01 is already release ${holderId} "Got There First" (draft)\n`);
    expect(r.stderr).toContain('hint: run `reldist release apply taken-meanwhile.yaml` to update it, or change catalog_number\n');
    expect(r.stderr).not.toContain('release.yaml`');
    await expect(readFile(join(work, 'taken-meanwhile.yaml'), 'utf8')).resolves.toMatch(/catalog_number: RACE-01/);
  });

  it('asks whether to keep a release date in the past, and asks for the date again after a no', async () => {
    const answers = goodAnswers();
    const d = answers.indexOf('2030-01-15');
    answers.splice(d, 1, '2024-01-05', false, '2024-01-06', true);
    const r = await wizard({ answers });
    expect(r.code, r.stderr).toBe(0);
    const question = (date: string) => `${date} is in the past: stores will show it as the original date; keep it?`;
    expect(r.asked.filter((m) => m.includes('in the past'))).toEqual([question('2024-01-05'), question('2024-01-06')]);
    expect(r.stderr).toContain('Release:   2024-01-06');
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
