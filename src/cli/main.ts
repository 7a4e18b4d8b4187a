// The entry point, and the only place that calls process.exit: it maps every error to one line
// on stderr and an exit code. It stays tiny: `--version` and help topics answer without loading
// commander; everything else loads the command tree (see docs/startup.md).
import { CliError, ExitCode } from './errors.js';
import { processIO } from './io.js';
import { VERSION } from './version.js';
import { helpTopics } from './help-topics.js';

async function main(argv: string[]): Promise<number> {
  // A reader that went away (`reldist … | head`) is not an error: stop quietly.
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (err: NodeJS.ErrnoException) => {
      if (err.code === 'EPIPE') process.exit(ExitCode.ok);
      throw err;
    });
  }
  const io = processIO();
  const args = argv.slice(2);
  if (args.length === 1 && (args[0] === '--version' || args[0] === '-V')) {
    io.stdout.write(`${VERSION}\n`);
    return ExitCode.ok;
  }
  if (args[0] === 'help' && args[1] && helpTopics[args[1]]) {
    io.stdout.write(helpTopics[args[1]]!);
    return ExitCode.ok;
  }

  const controller = new AbortController();
  const onSignal = () => controller.abort(new CliError('interrupted', { exitCode: ExitCode.interrupted }));
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);

  const { runCli } = await import('./run-cli.js');
  return runCli(args, { io, env: process.env, signal: controller.signal });
}

const code = await main(process.argv);
// Let stdout drain before exiting: a piped reader must get every byte.
process.exitCode = code;
if (code !== 0 || process.env.RELDIST_FORCE_EXIT === '1') process.exit(code);
