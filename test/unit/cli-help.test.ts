// Every command's --help, found by walking the whole command tree: a one-line summary, a usage
// line and at least one example. A command added without them fails here.
import { PassThrough, Writable } from 'node:stream';
import type { Command } from 'commander';
import { describe, expect, it } from 'vitest';
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

function io(): IO & { stdout: Sink; stderr: Sink } {
  return { stdin: new PassThrough().end(), stdout: new Sink(), stderr: new Sink(), stdinIsTTY: false, stdoutIsTTY: false, stderrIsTTY: false };
}

/** Every command path below the root, groups included: [['release'], ['release', 'list'], …]. */
function walk(cmd: Command, path: string[] = []): string[][] {
  return cmd.commands.flatMap((c) => [[...path, c.name()], ...walk(c, [...path, c.name()])]);
}

const paths = walk(buildProgram({ io: io(), env: {} }));

describe('--help of every command', () => {
  it('walks the whole tree (every group and its verbs)', () => {
    const names = paths.map((p) => p.join(' '));
    for (const expected of [
      'me',
      'api',
      'openapi',
      'completion',
      'serve',
      'release submit',
      'track replace',
      'validate isrc',
      'artist resolve',
      'prefs label',
      'label artists remove',
      'lookup genres',
      'auth logout',
      'config unset',
    ]) {
      expect(names).toContain(expected);
    }
  });

  it.each(paths.map((p) => [p.join(' ')]))('reldist %s --help: summary, usage and an example', async (name) => {
    const streams = io();
    const code = await runCli([...name.split(' '), '--help'], { io: streams, env: {} });
    expect(code).toBe(0);
    expect(streams.stderr.text).toBe('');
    const help = streams.stdout.text;
    const lines = help.split('\n');
    expect(lines[0]).toMatch(new RegExp(`^Usage: reldist ${name}(\\|\\w+)* `));
    // The summary: the first paragraph after the usage line, one line, a sentence of its own.
    expect(lines[1]).toBe('');
    expect(lines[2]!.trim().length).toBeGreaterThan(10);
    expect(lines[3] === '' || lines[3] === undefined).toBe(true);
    expect(help).toMatch(/\nExamples:\n {2}\$ reldist \S/);
    for (const example of help
      .slice(help.indexOf('\nExamples:'))
      .split('\n')
      .filter((l) => l.startsWith('  $ '))) {
      expect(example, `an example of ${name} runs this command`).toMatch(/^ {2}\$ (?:.*\| )?reldist |^ {2}\$ \S+.*\| reldist |^ {2}\$ (?:\w+=\S+ )*reldist /);
    }
  });
});

describe('reldist help <word>', () => {
  it("shows a command's help, and refuses a word that names nothing (exit 2, a suggestion, nothing on stdout)", async () => {
    const known = io();
    expect(await runCli(['help', 'release'], { io: known, env: {} })).toBe(0);
    expect(known.stdout.text).toMatch(/^Usage: reldist release /);
    const typo = io();
    expect(await runCli(['help', 'relase'], { io: typo, env: {} })).toBe(2);
    expect(typo.stdout.text).toBe('');
    expect(typo.stderr.text).toBe('error: no command or help topic named "relase"\nhint: did you mean `reldist help release`?\n');
    const nothing = io();
    expect(await runCli(['help', 'nosuchtopic'], { io: nothing, env: {} })).toBe(2);
    expect(nothing.stderr.text).toMatch(/^error: no command or help topic named "nosuchtopic"\n/);
    // After global options and their values, the same.
    for (const globals of [['--profile', 'work'], ['--timeout', '5s'], ['--quiet']]) {
      const after = io();
      expect(await runCli([...globals, 'help', 'nosuchtopic'], { io: after, env: {} }), globals.join(' ')).toBe(2);
      expect(after.stderr.text).toMatch(/^error: no command or help topic named "nosuchtopic"\n/);
    }
  });
});
