// The entry point, and the only place that calls process.exit: it maps every error to one line
// on stderr and an exit code. It stays tiny: `--version`, help topics and the root `--help` are
// answered from strings made at build time (static-answers.ts) without loading commander or any
// other module; everything else loads the command tree (see docs/startup.md).
import type { ExitCode } from './errors.js';
import { staticAnswers } from './static-answers.js';

// The one constant of sandbox-state.ts main.ts needs, spelled here so the fast paths load nothing
// more (test/e2e/sandbox-background.test.ts checks the two agree).
const DAEMON_ENV = 'RELDIST_SANDBOX_PROCESS';

// A type-only import keeps errors.js (and its chunk) out of the fast paths.
const OK: typeof ExitCode.ok = 0;

/** The answer to argv if it needs no code, else undefined. */
async function fastAnswer(args: string[]): Promise<string | undefined> {
  const one = args.length === 1 ? args[0] : undefined;
  if (one === '--version' || one === '-V') return `${(await staticAnswers()).version}\n`;
  if (args[0] === 'help' && args[1]) return (await staticAnswers()).topics[args[1]];
  // The stored root help is commander's rendering for a pipe or file; a terminal gets it from
  // commander, wrapped to its width.
  if ((one === '--help' || one === '-h') && !process.stdout.isTTY) return (await staticAnswers()).rootHelp;
  return undefined;
}

async function main(argv: string[]): Promise<number> {
  // Started by a command as the background sandbox (sandbox-background.ts): no command line at
  // all, and no output (its stdio is /dev/null: the streams are not even made).
  const order = process.env[DAEMON_ENV];
  if (order !== undefined) {
    const daemon = await import('./sandbox-daemon.js');
    const parsed = daemon.parseOrder(order);
    return parsed ? daemon.runSandboxDaemon(parsed) : 2;
  }
  // A reader that went away (`reldist … | head`) is not an error: stop quietly.
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (err: NodeJS.ErrnoException) => {
      if (err.code === 'EPIPE') process.exit(OK);
      throw err;
    });
  }
  const args = argv.slice(2);
  // The completion scripts' question for a flag's values from the service: no command tree.
  if (args[0] === '__complete') return (await import('./complete-values.js')).completeValues(args.slice(1), { stdout: process.stdout }, process.env);
  const answer = await fastAnswer(args);
  if (answer !== undefined) {
    process.stdout.write(answer);
    return OK;
  }

  const { runProcess } = await import('./run-cli.js');
  return runProcess(args);
}

// No top-level await: the bundle is CommonJS (see scripts/build.mjs).
void main(process.argv).then((code) => {
  // Let stdout drain before exiting: a piped reader must get every byte.
  process.exitCode = code;
  if (code === 0 && process.env.RELDIST_FORCE_EXIT !== '1') return;
  // Exiting at once must not cut what is still queued for a full pipe (a 500-release report that
  // exits 3): exit once it is written.
  if (process.stdout.writableLength === 0) process.exit(code);
  else process.stdout.write('', () => process.exit(code));
});
