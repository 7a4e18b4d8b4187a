// A verb's options type is derived from its declared flags (command.ts: option(), OptsOf), and
// runners.ts refuses a run typed otherwise. The type checks here fail `tsc --noEmit`; the runtime
// checks hold the derivation to what commander does with the same flags.
import { Command } from 'commander';
import { PassThrough } from 'node:stream';
import { expect, expectTypeOf, test } from 'vitest';
import { addOptions, collect, option, requiredOption, type OptionsOf, type TakesDeclaredOptions } from '../../src/cli/command.js';
import type { ApplyOpts } from '../../src/cli/commands/release/spec.js';
import type { ServeOpts, TokenCreateOpts } from '../../src/cli/commands/serve/spec.js';
import type { Context } from '../../src/cli/context.js';
import { buildProgram } from '../../src/cli/program.js';

const declared = [
  option('-f, --file <file>', 'a file'),
  option('--per-page <n>', 'a number, as text'),
  option('--submit', 'a switch'),
  option('--no-input', 'a negated switch'),
  option('--artist <name>', 'repeatable', collect),
  option('--host <host>', 'with a default', '127.0.0.1'),
  requiredOption('--account <kind>', 'required'),
  option('--codes <codes...>', 'variadic'),
  option('--color [when]', 'an optional value'),
] as const;

test('a flags string gives the key and the value commander gives', () => {
  expectTypeOf<OptionsOf<typeof declared>>().toEqualTypeOf<{
    file?: string;
    perPage?: string;
    submit?: boolean;
    input: boolean;
    artist?: string[];
    host: string;
    account: string;
    codes?: string[];
    color?: string | true;
  }>();
  const cmd = new Command('x').exitOverride();
  addOptions(cmd, declared);
  cmd.parse(['-f', 'a', '--per-page', '3', '--submit', '--no-input', '--artist', 'A', '--artist', 'B', '--account', 'label', '--codes', 'x', 'y', '--color'], {
    from: 'user',
  });
  expect(cmd.opts()).toEqual({
    file: 'a',
    perPage: '3',
    submit: true,
    input: false,
    artist: ['A', 'B'],
    host: '127.0.0.1',
    account: 'label',
    codes: ['x', 'y'],
    color: true,
  });
  const missing = new Command('z').exitOverride().configureOutput({ writeErr: () => {} });
  addOptions(missing, declared);
  expect(() => missing.parse([], { from: 'user' })).toThrow(/--account/);
});

test("a run's options are its declaration's: an undeclared flag or another type does not compile", () => {
  const opts: ApplyOpts = { parallel: '4', submit: true };
  // @ts-expect-error: release apply declares no --bogus
  expect(opts.bogus).toBeUndefined();
  // @ts-expect-error: --parallel comes as text, as commander gives it
  const parallel: number = opts.parallel;
  expect(parallel).toBe('4');
  expectTypeOf<ServeOpts['host']>().toEqualTypeOf<string>();
  expectTypeOf<ServeOpts['dataDir']>().toEqualTypeOf<string | undefined>();
  // serve inherits the root's flags: --sandbox is read there.
  expectTypeOf<ServeOpts['sandbox']>().toEqualTypeOf<boolean | undefined>();
  expectTypeOf<TokenCreateOpts['account']>().toEqualTypeOf<string>();
});

test("the runner table takes a run only with its declaration's options (or none)", () => {
  type Run<O> = (ctx: Context, opts: O, args: string[]) => Promise<void>;
  expectTypeOf<TakesDeclaredOptions<Run<ApplyOpts>>>().toEqualTypeOf<true>();
  expectTypeOf<TakesDeclaredOptions<(ctx: Context) => Promise<void>>>().toEqualTypeOf<true>();
  // Written by hand, even with the same fields: refused.
  expectTypeOf<TakesDeclaredOptions<Run<{ parallel?: string }>>>().toEqualTypeOf<false>();
  expectTypeOf<TakesDeclaredOptions<Run<Record<string, unknown>>>>().toEqualTypeOf<false>();
  // The declaration's options and more: refused.
  expectTypeOf<TakesDeclaredOptions<Run<ApplyOpts & { bogus?: string }>>>().toEqualTypeOf<false>();
});

/** The key OptionKey derives from a flags string, at run time: the long name, without no-, in camelCase. */
function keyOf(flags: string): string {
  const long = /--([^\s,]+)/.exec(flags)?.[1] ?? '';
  return long.replace(/^no-/, '').replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
}

test('every flag of every command has the key the types derive (commander agrees)', () => {
  const out = new PassThrough();
  const io = { stdin: new PassThrough(), stdout: out, stderr: out, stdinIsTTY: false, stdoutIsTTY: false, stderrIsTTY: false };
  const program = buildProgram({ io: io as never, env: {} });
  const all: Command[] = [];
  const walk = (c: Command) => {
    all.push(c);
    c.commands.forEach(walk);
  };
  walk(program);
  const flags = all.flatMap((c) => c.options.map((o) => ({ flags: o.flags, key: o.attributeName() })));
  expect(flags.length).toBeGreaterThan(100);
  expect(flags.filter((f) => keyOf(f.flags) !== f.key)).toEqual([]);
});
