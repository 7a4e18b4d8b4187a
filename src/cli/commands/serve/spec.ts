// `reldist serve` as --help and shell completion see it. Declarations only; the code is in serve.ts.
import { defineCommand } from '../../command.js';
import { dataDir } from '../../paths.js';

export interface ServeOpts {
  host: string;
  port: string;
  dataDir?: string;
  sandboxAutoReview?: string;
  sandboxReviewDelay?: string;
}

export const serveCommand = defineCommand<ServeOpts>({
  name: 'serve',
  summary: 'Run the reference service as a standing sandbox',
  description:
    'Starts the sandbox service (with the /_sandbox review controls) over a data directory and prints one JSON line\n' +
    'on stdout: {"base_url": …, "tokens": {"label": …, "artist": …}}. Messages go to stderr. Ctrl-C (SIGINT) or SIGTERM\n' +
    'stops it cleanly: requests in flight finish first. Data survives restarts.\n\n' +
    '--sandbox-auto-review approve|reject|live makes it review every submitted release by itself, --sandbox-review-delay\n' +
    'after submit (default 0s; 500ms, 10s, 5m, 1h): approve; reject (reason code sandbox_auto_reject); live (approve,\n' +
    'deliver, go live). For a CI pipeline that rehearses submit → `reldist release watch`.',
  examples: [
    'reldist serve',
    'reldist serve --port 8080 --data-dir ./sandbox-data',
    'reldist serve --port 0 | head -n1 | jq -r .base_url',
    'reldist serve --sandbox-auto-review approve --sandbox-review-delay 2s',
  ],
  configure(cmd) {
    cmd
      .option('--host <host>', 'address to listen on (keep it on loopback unless you mean to share it)', '127.0.0.1')
      .option('--port <n>', 'port to listen on; 0 picks a free one', '0')
      .option('--data-dir <dir>', 'where the database and uploads live (default: the user data folder)')
      .option('--sandbox-auto-review <outcome>', 'review submitted releases by itself: approve, reject or live')
      .option('--sandbox-review-delay <duration>', 'how long after submit the auto-review comes (default 0s)');
  },
});
