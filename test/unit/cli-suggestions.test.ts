// A mistyped or other-named command or flag is answered with where the thing is: commander's
// nearest real name, else the aliases table (`reldist login` → `auth login`, `--comment` →
// `--message`). The table is held to the tree: every alias names a real command, every synonym
// a real flag of its command. The reviewer's text is --message everywhere, --notes kept hidden.
import { PassThrough, Writable } from 'node:stream';
import type { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { COMMAND_ALIASES, FLAG_SYNONYMS } from '../../src/cli/aliases.js';
import { buildProgram } from '../../src/cli/program.js';
import { runCli } from '../../src/cli/run-cli.js';
import type { IO } from '../../src/cli/io.js';

class Sink extends Writable {
  text = '';
  override _write(chunk: Buffer | string, _enc: BufferEncoding, cb: () => void): void {
    this.text += chunk.toString();
    cb();
  }
}
const io = (): IO & { stdout: Sink; stderr: Sink } => ({
  stdin: new PassThrough().end(),
  stdout: new Sink(),
  stderr: new Sink(),
  stdinIsTTY: false,
  stdoutIsTTY: false,
  stderrIsTTY: false,
});

/** Runs argv offline (every case here fails at parsing, before any service is looked for). */
async function run(argv: string[]) {
  const streams = io();
  const code = await runCli(argv, { io: streams, env: { HOME: '/nonexistent', RELDIST_CONFIG_DIR: '/nonexistent' } });
  return { code, stdout: streams.stdout.text, stderr: streams.stderr.text };
}

const program = buildProgram({ io: io(), env: {} });
const find = (path: string[]): Command | undefined =>
  path.reduce<Command | undefined>((at, word) => at?.commands.find((c) => c.name() === word || c.aliases().includes(word)), program);
const longFlags = (cmd: Command) => new Set([...cmd.options, ...program.options].map((o) => o.long));

describe('suggestions', () => {
  it.each([
    [['login'], "unknown command 'login'", 'did you mean `reldist auth login`?'],
    [['logn'], "unknown command 'logn'", 'did you mean `reldist auth login`?'],
    [['whoami'], "unknown command 'whoami'", 'did you mean `reldist me`?'],
    [['submit', '42'], "unknown command 'submit'", 'did you mean `reldist release submit`?'],
    [['relese', 'list'], "unknown command 'relese'", 'did you mean release?'],
    [['release', 'submit', '42', '--comment', 'x'], "unknown option '--comment'", 'did you mean --message?'],
    [['release', 'submit', '42', '--coment', 'x'], "unknown option '--coment'", 'did you mean --message?'],
    [['sandbox', 'reject', '42', '--codes', 'x'], "unknown option '--codes'", 'did you mean --reason?'],
    [['release', 'list', '--state', 'draft'], "unknown option '--state'", 'did you mean --status?'],
  ])('%j: exit 2 with a hint that names it', async (argv, message, hint) => {
    const r = await run(argv);
    expect(r).toEqual({ code: 2, stdout: '', stderr: `error: ${message}\nhint: ${hint}\n` });
  });

  it('a word no alias is near gets the usual hint', async () => {
    expect((await run(['xyzzy'])).stderr).toBe("error: unknown command 'xyzzy'\nhint: run with --help to see the flags and examples\n");
  });

  it('every alias names a command of the tree, never a top-level word that exists', () => {
    for (const [word, meant] of Object.entries(COMMAND_ALIASES)) {
      expect(find(meant.split(' ')), `${word} → ${meant}`).toBeDefined();
      expect(find([word]), `${word} is a command itself`).toBeUndefined();
    }
  });

  it('every synonym names a flag its command has, and is not one of its flags itself', () => {
    for (const [path, synonyms] of Object.entries(FLAG_SYNONYMS)) {
      const cmd = find(path.split(' '));
      expect(cmd, path).toBeDefined();
      for (const [other, flag] of Object.entries(synonyms)) {
        expect(longFlags(cmd!).has(flag), `${path}: ${other} → ${flag}`).toBe(true);
        expect(longFlags(cmd!).has(other), `${path}: ${other} is a flag`).toBe(false);
      }
    }
  });
});

describe("the reviewer's text", () => {
  it('is --message on every command that takes it; --notes still works there, hidden from --help', async () => {
    for (const path of [
      ['release', 'submit'],
      ['sandbox', 'reject'],
    ]) {
      const cmd = find(path)!;
      expect(longFlags(cmd).has('--message'), path.join(' ')).toBe(true);
      const help = await run([...path, '--help']);
      expect(help.stdout).toMatch(/-m, --message <text>/);
      expect(help.stdout).not.toContain('--notes');
      expect(cmd.options.find((o) => o.long === '--notes')?.hidden).toBe(true);
    }
  });
});
