// Parses argv, runs the command and turns any error into one line on stderr and an exit code.
// main.ts calls this with the real process streams; tests call it with buffers.
import { type Command, CommanderError } from 'commander';
import { commandWordAt, createProgram, invokedName, loadInvokedGroup, toUsageError, type ProgramDeps } from './build-program.js';
import { commandGroups, topLevelCommands } from './commands/index.js';
import { closest } from './help-text.js';
import { helpTopics } from './help-topics.js';
import { describeError } from './describe-error.js';
import { AnswerExit, CliError, ExitCode } from './errors.js';
import { processIO } from './io.js';
import { jsonText, visible } from './output/format.js';
import { writeStderr } from './output/width.js';
import { CleanUpGuard } from './clean-up-guard.js';
import { runner } from './commands/runners.js';
import type { SandboxLauncher } from './sandbox-background.js';
import { realpathSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** `args` without the node and script names. */
export async function runCli(args: string[], deps: ProgramDeps): Promise<number> {
  const { io } = deps;
  const debug = args.includes('--debug');
  const json = args.includes('--json');
  let program: Command | undefined;
  try {
    refuseUnknownHelp(args);
    // The root's --help and a typo's suggestions need only the group names; a command needs its group.
    program = createProgram({ runner, ...deps }, await loadInvokedGroup(args, deps.only));
    await program.parseAsync(args, { from: 'user' });
    return ExitCode.ok;
  } catch (thrown) {
    let err = thrown;
    if (err instanceof CommanderError) {
      // --help and --version end through here too, with exit code 0.
      if (err.exitCode === 0 || err.code === 'commander.helpDisplayed' || err.code === 'commander.version' || err.code === 'commander.help') {
        return ExitCode.ok;
      }
      err = toUsageError(err, program && { program, args });
    }
    if (err instanceof AnswerExit) return err.exitCode;
    const described = describeError(err, { debug });
    if (json) {
      // JSON lines: one per bad input file, then the error itself, always last.
      const { code, message, hint, details, files } = described;
      for (const f of files)
        io.stderr.write(`${jsonText({ file: f.file, code: f.code, message: f.message, ...(f.named_in !== undefined ? { named_in: f.named_in } : {}) })}\n`);
      io.stderr.write(`${jsonText({ error: { code, message, hint, ...(details.length > 0 ? { details } : {}) } })}\n`);
    } else {
      // The service's words may carry anything: no control character reaches the terminal raw.
      for (const line of described.details) writeStderr({ io }, `${visible(line)}\n`);
      // One file's line is left out when the error already opens with it (one missing file).
      const [only, ...others] = described.files;
      const said = only && others.length === 0 && described.message.startsWith(`${only.file}: ${only.message}`);
      if (!said)
        for (const f of described.files)
          writeStderr({ io }, visible(`error: ${f.named_in !== undefined ? `${f.named_in}: ` : ''}${f.file}: ${f.message}`) + '\n');
      // Wrapped to a terminal's width; piped, each stays one line for a script to grep.
      writeStderr({ io }, `error: ${visible(described.message)}\n`);
      if (described.hint) writeStderr({ io }, `hint: ${visible(described.hint)}\n`);
    }
    if (debug && err instanceof Error && err.stack) io.stderr.write(`${err.stack}\n`);
    return described.exitCode;
  }
}

/**
 * The real process: its streams and environment. Ctrl-C (or SIGTERM) aborts the running command;
 * another one ends it at once (main.ts exits), unless clean-up after the first is running: then
 * the second says what it is finishing, and a third stops it, saying what remains.
 */
export function runProcess(args: string[]): Promise<number> {
  const io = processIO();
  const controller = new AbortController();
  const cleanUps = new CleanUpGuard();
  let endNow: (code: number) => void = () => {};
  const ended = new Promise<number>((resolve) => (endNow = resolve));
  let presses = 0;
  const onSignal = () => {
    presses++;
    if (presses === 1) return controller.abort(new CliError('interrupted', { exitCode: ExitCode.interrupted }));
    const running = cleanUps.running();
    if (running.length > 0 && presses === 2) {
      for (const t of running) io.stderr.write(`\nstill ${t.doing}; Ctrl-C again to stop and leave it\n`);
      return;
    }
    for (const t of running) io.stderr.write(`\nerror: interrupted: ${t.leftover}\n`);
    endNow(ExitCode.interrupted);
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  return Promise.race([runCli(args, { io, env: process.env, signal: controller.signal, cleanUps, sandboxLauncher: launcher() }), ended]);
}

/**
 * This very CLI, to start again as the background sandbox; undefined when run some other way.
 * The build is the bundle's modification time: a rebuilt CLI must not use an older build's process.
 */
function launcher(): SandboxLauncher | undefined {
  const script = process.argv[1];
  if (!script) return undefined;
  try {
    const main = join(dirname(realpathSync(script)), '..', 'dist', 'main.js');
    return { execPath: process.execPath, args: [script], build: String(statSync(main).mtimeMs) };
  } catch {
    return undefined;
  }
}

/**
 * `help <word>` for a word that is neither a command nor a topic is a usage error, as gh's is
 * (commander would print the root help and exit 0). Topics are answered in main.ts before this.
 */
function refuseUnknownHelp(args: readonly string[]): void {
  const at = commandWordAt(args);
  if (at < 0 || args[at] !== 'help') return;
  const word = invokedName(args);
  if (word === undefined) return;
  const names = [...topLevelCommands.flatMap((c) => [c.name, ...(c.aliases ?? [])]), ...commandGroups.map((g) => g.name), ...Object.keys(helpTopics)];
  if (names.includes(word)) return;
  const near = closest(word, names);
  throw new CliError(`no command or help topic named "${word}"`, {
    exitCode: ExitCode.usage,
    code: 'usage',
    hint: near ? `did you mean \`reldist help ${near}\`?` : 'run `reldist --help` for the commands, `reldist help exit-codes` for exit codes',
  });
}
