// Parses argv, runs the command and turns any error into one line on stderr and an exit code.
// main.ts calls this with the real process streams; tests call it with buffers.
import { CommanderError } from 'commander';
import { createProgram, loadInvokedGroup, toUsageError, type ProgramDeps } from './build-program.js';
import { describeError } from './describe-error.js';
import { CliError, ExitCode } from './errors.js';
import { processIO } from './io.js';
import { runner } from './commands/runners.js';

/** `args` without the node and script names. */
export async function runCli(args: string[], deps: ProgramDeps): Promise<number> {
  const { io } = deps;
  const debug = args.includes('--debug');
  const json = args.includes('--json');
  try {
    // The root's --help and a typo's suggestions need only the group names; a command needs its group.
    const program = createProgram({ runner, ...deps }, await loadInvokedGroup(args, deps.only));
    await program.parseAsync(args, { from: 'user' });
    return ExitCode.ok;
  } catch (err) {
    if (err instanceof CommanderError) {
      // --help and --version end through here too, with exit code 0.
      if (err.exitCode === 0 || err.code === 'commander.helpDisplayed' || err.code === 'commander.version' || err.code === 'commander.help') {
        return ExitCode.ok;
      }
      err = toUsageError(err);
    }
    const described = describeError(err, { debug });
    if (json) {
      const { code, message, hint, details } = described;
      io.stderr.write(`${JSON.stringify({ error: { code, message, hint, ...(details.length > 0 ? { details } : {}) } })}\n`);
    } else {
      for (const line of described.details) io.stderr.write(`${line}\n`);
      io.stderr.write(`error: ${described.message}\n`);
      if (described.hint) io.stderr.write(`hint: ${described.hint}\n`);
    }
    if (debug && err instanceof Error && err.stack) io.stderr.write(`${err.stack}\n`);
    return described.exitCode;
  }
}

/** The real process: its streams and environment; Ctrl-C and SIGTERM abort the running command. */
export function runProcess(args: string[]): Promise<number> {
  const controller = new AbortController();
  const onSignal = () => controller.abort(new CliError('interrupted', { exitCode: ExitCode.interrupted }));
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  return runCli(args, { io: processIO(), env: process.env, signal: controller.signal });
}
