// `reldist serve` as --help and shell completion see it. Declarations only; the code is in serve.ts.
import { defineCommand, defineGroup, option, type OptsOf, requiredOption } from '../../command.js';

export type ServeOpts = OptsOf<typeof serveCommand>;

export type TokenCreateOpts = OptsOf<typeof tokenCreateCommand>;

export const tokenCreateCommand = defineCommand({
  name: 'create',
  summary: 'Create an account on the service and print its token',
  description:
    'Works on the data directory directly (the service may be running or not) and prints the new token once, alone\n' +
    'on stdout: pass it on to its owner, who signs in with `reldist auth login`. It is not shown again; only its hash\n' +
    'is kept.',
  examples: [
    'reldist serve token create --account label --name "Northern Records" --data-dir /srv/reldist',
    'reldist serve token create --account artist --name "Ada Lind" > ada.token',
  ],
  options: [
    requiredOption('--account <kind>', 'the kind of account: label or artist'),
    requiredOption('--name <name>', 'the label or artist name the account goes by'),
    option('--data-dir <dir>', "the service's data directory (default: the user data folder)"),
  ],
  inheritsOptions: true,
});

const tokenGroup = defineGroup({
  name: 'token',
  summary: 'Accounts and tokens of a service run with `reldist serve`',
  examples: ['reldist serve token create --account label --name "Northern Records" --data-dir /srv/reldist'],
  commands: [tokenCreateCommand],
});

export const serveCommand = defineCommand({
  name: 'serve',
  summary: 'Run the reference service',
  description:
    'Starts the service over a data directory and prints one JSON line on stdout: {"base_url": …} (with --sandbox,\n' +
    'also "tokens": {"label": …, "artist": …}). Messages go to stderr. Ctrl-C (SIGINT) or SIGTERM stops it cleanly:\n' +
    'requests in flight finish first. Data survives restarts.\n\n' +
    'Without --sandbox it is a service for a team: accounts come from `reldist serve token create`, and there are no\n' +
    'review controls. --sandbox adds the demo label and artist accounts (tokens printed) and the /_sandbox review\n' +
    'controls (`reldist sandbox approve` …); never share a sandbox. Only the flag makes one: RELDIST_SANDBOX=1 does not.\n\n' +
    '--sandbox-auto-review approve|reject|live (with --sandbox) makes it review every submitted release by itself,\n' +
    '--sandbox-review-delay after submit (default 0s; 500ms, 10s, 5m, 1h): approve; reject (reason code\n' +
    'sandbox_auto_reject); live (approve, deliver, go live). For a CI pipeline that rehearses submit → `reldist release watch`.\n\n' +
    'Upload URLs point at --public-url when given, else at the host the client asked for (X-Forwarded-Host and\n' +
    'X-Forwarded-Proto are believed only with --trust-proxy).\n\n' +
    'Uploads: at most --upload-account-limit bytes (default 4GiB) arrive for one account at a time and\n' +
    '--upload-total-limit (default 16GiB) for all (counted by declared size; beyond them an upload is refused\n' +
    'with 413 upload_quota_exceeded or 507 upload_capacity_exceeded before it sends a byte); an upload lives as\n' +
    'long as it moves, and one silent for --upload-stall-timeout (default 60s) is cut off.\n\n' +
    "Slow clients: a request's headers must arrive within --headers-timeout (default 30s, counted from the\n" +
    "connection's opening for its first request); every body, uploads included, must send at least --min-body-rate\n" +
    '(default 1KiB, per second) over each --body-rate-window (default 20s); a body other than an upload must be whole\n' +
    'within --body-timeout (default 60s); an idle keep-alive connection closes after --keep-alive-timeout (default\n' +
    '5s). A client cut off gets 408 request_timeout where an answer is still possible, and a warning line goes to\n' +
    'stderr. --max-connections caps open connections (default: no cap) and --max-connections-per-address those\n' +
    'of one client address (default: a quarter of --max-connections; with --trust-proxy, where every connection\n' +
    "is the proxy's, --max-connections itself); more are closed as they arrive.\n\n" +
    'Complete uploads that no track names count against --upload-account-limit too, and are deleted (file and\n' +
    'record) --upload-expiry after they arrived (default 24h); the service sweeps every few minutes and says on\n' +
    'stderr what it removed. `reldist sandbox prune --data-dir <dir>` frees them at once.\n\n' +
    'Webhooks: a delivery not answered 2xx is retried with backoff until --webhook-retry-horizon after its event\n' +
    '(default 3d; e.g. 30s for a test), each attempt cut after --webhook-timeout (default 10s). Without --sandbox,\n' +
    'webhook URLs on loopback, private, link-local and unique-local addresses are refused (a sandbox allows loopback);\n' +
    '--allow-private-webhooks allows them all (a service inside a private network delivering to it).',
  examples: [
    'reldist serve --sandbox',
    'reldist serve --sandbox --port 0 | head -n1 | jq -r .base_url',
    'reldist serve --sandbox --sandbox-auto-review approve --sandbox-review-delay 2s',
    'reldist serve --host 0.0.0.0 --port 8080 --data-dir /srv/reldist --public-url https://reldist.example.com',
  ],
  options: [
    option('--host <host>', 'address to listen on (keep it on loopback unless you mean to share it)', '127.0.0.1'),
    option('--port <n>', 'port to listen on; 0 picks a free one', '0'),
    option('--data-dir <dir>', 'where the database and uploads live (default: the user data folder)'),
    option('--sandbox-auto-review <outcome>', 'review submitted releases by itself: approve, reject or live (with --sandbox)'),
    option('--sandbox-review-delay <duration>', 'how long after submit the auto-review comes (default 0s)'),
    option('--rate-limit <n|off>', 'requests per minute per token (default 3000), or off'),
    option('--public-url <url>', 'the address clients reach the service at, used in upload URLs'),
    option('--trust-proxy', 'believe X-Forwarded-Host and X-Forwarded-Proto (behind a reverse proxy only)'),
    option('--max-connections <n>', 'connections open at once; more are closed (default: no cap)'),
    option('--max-connections-per-address <n>', 'connections open at once from one client address (default: a quarter of --max-connections)'),
    option('--headers-timeout <duration>', "a request's headers must arrive within this (default 30s)"),
    option('--keep-alive-timeout <duration>', 'close a keep-alive connection idle this long (default 5s)'),
    option('--body-timeout <duration>', 'a request body other than an upload must be whole within this (default 60s)'),
    option('--min-body-rate <size>', 'bytes per second every body and upload must keep up, e.g. 4KiB (default 1KiB)'),
    option('--body-rate-window <duration>', 'the window the minimum body rate is judged over (default 20s)'),
    option('--upload-account-limit <size>', 'upload bytes arriving at once per account, e.g. 2GiB (default 4GiB)'),
    option('--upload-total-limit <size>', 'upload bytes arriving at once in all, e.g. 10GB (default 16GiB)'),
    option('--upload-stall-timeout <duration>', 'cut off an upload that sends nothing this long (default 60s)'),
    option('--upload-expiry <duration>', 'delete uploads attached to no track this long after they arrived (default 24h)'),
    option('--webhook-retry-horizon <duration>', 'retry an undelivered webhook for this long after its event (default 3d)'),
    option('--webhook-timeout <duration>', 'cut a webhook attempt that has not answered after this long (default 10s)'),
    option('--allow-private-webhooks', 'allow webhook URLs on loopback, private and link-local addresses'),
  ],
  subgroups: [tokenGroup],
  // --sandbox is the global flag (commander gives it to the root wherever it stands): read it there.
  inheritsOptions: true,
  runsUntilStopped: true,
});
