// Every `reldist …` the CLI's sources mention (hints, errors, notes, help and examples) names a
// real command with real flags: each is checked against the whole command tree. Messages name
// commands and flags, not HTTP methods and paths (those are for --debug).
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { PassThrough, Writable } from 'node:stream';
import type { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { buildProgram, helpTopics } from '../../src/cli/program.js';
import { inCliTerms } from '../../src/cli/service-text.js';

const root = join(import.meta.dirname, '../../src/cli');
const sink = new Writable({ write: (_c, _e, cb) => cb() });
const program = buildProgram({
  io: { stdin: new PassThrough().end(), stdout: sink, stderr: sink, stdinIsTTY: false, stdoutIsTTY: false, stderrIsTTY: false },
  env: {},
});

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sources(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

/** A quoted `reldist …` (a hint's backticks, an example's quotes): what a person is told to type. */
const MENTION = /[`'"]reldist((?: +[^\s`'"|;,)]+)+)/g;

interface Mention {
  where: string;
  text: string;
}

function mentions(): Mention[] {
  const out: Mention[] = [];
  for (const file of sources(root)) {
    const lines = readFileSync(file, 'utf8').split('\n');
    lines.forEach((line, i) => {
      // Comments explain code; they are not shown to anyone.
      if (/^\s*(\/\/|\*|\/\*)/.test(line)) return;
      for (const m of line.matchAll(MENTION)) out.push({ where: `${relative(root, file)}:${i + 1}`, text: m[1]!.trim() });
    });
  }
  return out;
}

/** What is wrong with one mention, or undefined: its command words must lead to a command, its flags must be that command's or global. */
function problemOf(text: string): string | undefined {
  const tokens = text.split(/\s+/);
  let cmd: Command = program;
  let i = 0;
  // Global flags may come before the command words.
  while (i < tokens.length && tokens[i]!.startsWith('-')) i += program.options.find((o) => o.long === tokens[i]!.split('=')[0])?.required ? 2 : 1;
  for (; i < tokens.length; i++) {
    const word = tokens[i]!;
    const sub = cmd.commands.find((c) => c.name() === word || c.aliases().includes(word));
    if (!sub) break;
    cmd = sub;
  }
  if (cmd === program) {
    const word = tokens[i] ?? '';
    // `reldist help <topic>` and words that are not command-like (a version, a placeholder) are fine.
    if (word === 'help' || !/^[a-z][a-z-]*$/.test(word)) return undefined;
    return `no command "${word}"`;
  }
  if (cmd.commands.length > 0 && i < tokens.length && /^[a-z][a-z-]*$/.test(tokens[i]!) && !cmd.registeredArguments.length) {
    return `"${cmd.name()}" has no sub-command "${tokens[i]}"`;
  }
  const known = new Set<string>();
  for (let c: Command | null = cmd; c; c = c.parent)
    for (const o of c.options) for (const f of [o.long, o.short, o.negate ? o.long : undefined]) if (f) known.add(f);
  known.add('--help').add('-h');
  for (const t of tokens.slice(i)) {
    const flag = /^(--?[a-zA-Z][\w-]*)/.exec(t)?.[1];
    if (flag && !known.has(flag)) return `"reldist ${cmdPath(cmd)}" has no flag ${flag}`;
  }
  return undefined;
}

function cmdPath(c: Command): string {
  const names: string[] = [];
  for (let x: Command | null = c; x?.parent; x = x.parent) names.unshift(x.name());
  return names.join(' ');
}

describe('every `reldist …` in the CLI names a real command with real flags', () => {
  const all = mentions();

  it('finds the mentions (hints, notes, examples)', () => {
    expect(all.length).toBeGreaterThan(100);
    expect(all.map((m) => m.text)).toEqual(expect.arrayContaining([expect.stringMatching(/^auth login/)]));
    expect(Object.keys(helpTopics).length).toBeGreaterThan(0);
  });

  it('each resolves against the command tree', () => {
    const bad = all.flatMap((m) => {
      const p = problemOf(m.text);
      return p ? [`${m.where}: reldist ${m.text}: ${p}`] : [];
    });
    expect(bad).toEqual([]);
  });

  it('the checker itself refuses what does not exist', () => {
    expect(problemOf('release recall 42')).toMatch(/no sub-command "recall"/);
    expect(problemOf('release list --everything')).toMatch(/no flag --everything/);
    expect(problemOf('frobnicate')).toMatch(/no command/);
    expect(problemOf('release list --all --json')).toBeUndefined();
    expect(problemOf('--profile ci release list')).toBeUndefined();
  });
});

describe('messages name commands, not HTTP', () => {
  it('no hint or error text in src/cli names an HTTP method with a path', () => {
    const bad: string[] = [];
    // Help (the declarations) may say which endpoint a command calls; messages may not.
    for (const file of sources(root).filter((f) => !f.endsWith('spec.ts') && !f.endsWith('service-text.ts'))) {
      readFileSync(file, 'utf8')
        .split('\n')
        .forEach((line, i) => {
          if (/^\s*(\/\/|\*|\/\*)/.test(line) || line.includes('.option(')) return;
          if (/['"`][^'"`]*\b(GET|POST|PUT|PATCH|DELETE) (\/|…\/|\.\.\.\/)[^'"`]*['"`]/.test(line))
            bad.push(`${relative(root, file)}:${i + 1}: ${line.trim()}`);
        });
    }
    expect(bad).toEqual([]);
  });
});

describe("the service's words in the CLI's terms", () => {
  it('turns the API references the service makes into commands, and drops any other', () => {
    expect(inCliTerms('Set a release date (PATCH …/delivery).')).toBe('Set a release date (`reldist release edit <id> --release-date YYYY-MM-DD`).');
    expect(inCliTerms('unknown genre "x"; see GET /lookup/genres')).toBe('unknown genre "x"; see `reldist lookup genres`');
    expect(inCliTerms('Upload the audio (POST …/tracks/upload-url) and attach its key.')).toBe(
      'Upload the audio with `reldist track upload <release> <files...>`.',
    );
    expect(inCliTerms('the upload address has expired; ask for a new one with POST …/tracks/upload-url')).toBe(
      'the upload address has expired; upload the file again with `reldist track upload <release> <files...>`',
    );
    expect(inCliTerms('done (GET /releases/1/history)')).toBe('done');
    expect(inCliTerms('nothing to change')).toBe('nothing to change');
  });

  it('every command it names is real', () => {
    const named = [
      'Set a release date (PATCH …/delivery).',
      'see GET /lookup/genres',
      'see GET /lookup/languages',
      'see GET /lookup/countries',
      'see GET /lookup/platforms',
      'see GET /preferences/label',
      'Upload the audio (POST …/tracks/upload-url) and attach its key.',
      'ask for one with POST …/tracks/upload-url',
    ].map(inCliTerms);
    for (const text of named) {
      const command = /`reldist ([^`]+)`/.exec(text)?.[1];
      expect(command, text).toBeDefined();
      expect(problemOf(command!), text).toBeUndefined();
    }
  });
});
