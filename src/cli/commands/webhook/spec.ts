// The `webhook` group as --help and shell completion see it: endpoints the account's events are
// delivered to (signed, retried), their delivery logs, and `listen`, which forwards the events to
// a local URL without any public endpoint. Declarations only; each verb's code is in <verb>.ts.
import { choice, defineCommand, defineGroup, option, requiredOption, type OptsOf } from '../../command.js';
import { eventTypes, webhookDeliveryStatuses } from '../../../contract/wire-values.js';

const EVENTS = `--events takes event types separated by commas (${eventTypes.join(', ')}; "approved" for release.approved), or * for all (the default).`;

const SIGNING = `Deliveries follow the Standard Webhooks specification: headers webhook-id (evt_<event id>, the same on every attempt and resend), webhook-timestamp and webhook-signature, verified with the endpoint's secret (for instance with the standardwebhooks library: README, "Webhooks"). Any 2xx is a delivery; anything else is retried with backoff for up to 3 days (the service's --webhook-retry-horizon).`;

export const createCommand = defineCommand({
  name: 'create',
  args: '<url>',
  safeToRerun: true,
  summary: "Register a URL for the account's events; prints its secret once",
  description: `Prints the endpoint and its secret (whsec_…): keep the secret now, it is not shown again (\`reldist webhook rotate-secret\` gives a new one). One endpoint per URL: creating the same URL again says which endpoint has it (exit 9). ${EVENTS}\n\nA team service refuses URLs on loopback, private and link-local addresses; a sandbox allows loopback.\n\n${SIGNING}`,
  examples: [
    'reldist webhook create https://hooks.example.com/reldist --events approved,rejected',
    'reldist webhook create https://hooks.example.com/reldist --json | jq -r .secret',
  ],
  options: [
    option('--events <types>', 'event types to deliver, comma-separated, or * (default *)'),
    option('--description <text>', 'what it is for'),
    option('--disabled', 'create it paused: nothing is delivered until `webhook update --enable`'),
  ],
});
export type CreateOpts = OptsOf<typeof createCommand>;

export const listCommand = defineCommand({
  name: 'list',
  summary: "The account's webhook endpoints (never their secrets)",
  description: 'A table on a terminal, tab-separated rows when piped (id, url, events, enabled, created), a JSON array with --json.',
  examples: ['reldist webhook list', 'reldist webhook list --json'],
  aliases: ['ls'],
});

export const updateCommand = defineCommand({
  name: 'update',
  args: '<id>',
  safeToRerun: true,
  summary: "Change an endpoint's URL, event types, description, or pause and resume it",
  description: `${EVENTS} --disable pauses it: events recorded while paused are not delivered to it.`,
  examples: ['reldist webhook update 3 --events "*"', 'reldist webhook update 3 --disable'],
  options: [
    option('--url <url>', 'a new URL'),
    option('--events <types>', 'event types to deliver, comma-separated, or *'),
    option('--description <text>', 'what it is for ("" clears it)'),
    option('--enable', 'resume deliveries'),
    option('--disable', 'pause deliveries'),
  ],
});
export type UpdateOpts = OptsOf<typeof updateCommand>;

export const deleteCommand = defineCommand({
  name: 'delete',
  args: '<id>',
  safeToRerun: true,
  summary: 'Delete an endpoint and its delivery log',
  description: 'Asks for confirmation on a terminal. Without a terminal (scripts, CI) --yes is required.',
  examples: ['reldist webhook delete 3', 'reldist webhook delete 3 --yes'],
  aliases: ['rm'],
});

export const testCommand = defineCommand({
  name: 'test',
  args: '<id>',
  safeToRerun: true,
  summary: 'Send the endpoint a signed ping now and say what it answered',
  description:
    "The ping's type is webhook.test and its webhook-id msg_test_…; it is signed like every delivery. Exit 0 when the endpoint answered 2xx, 1 otherwise (with what went wrong).",
  examples: ['reldist webhook test 3'],
});

export const rotateCommand = defineCommand({
  name: 'rotate-secret',
  args: '<id>',
  summary: 'A new secret (printed once); the old one signs too for --overlap',
  description:
    'During the overlap (default 24h; 0s stops the old secret at once) every delivery carries two signatures, one per secret, so the receiver can move to the new secret without missing a delivery. Then only the new one signs.',
  examples: ['reldist webhook rotate-secret 3', 'reldist webhook rotate-secret 3 --overlap 1h --json | jq -r .secret'],
  options: [option('--overlap <duration>', 'how long the old secret signs too (default 24h, at most 7d; 0s: not at all)')],
});
export type RotateOpts = OptsOf<typeof rotateCommand>;

export const deliveriesCommand = defineCommand({
  name: 'deliveries',
  args: '<id>',
  summary: "An endpoint's delivery log, newest first: event, status, attempts, last answer",
  description:
    'One row per delivery (an event sent to the endpoint, with its retries): id, event id, type, status (pending, succeeded, failed), attempts, the last status code or error, when it was last tried, and when it is tried next. --json prints the deliveries with every attempt.',
  examples: ['reldist webhook deliveries 3', 'reldist webhook deliveries 3 --status failed', 'reldist webhook deliveries 3 --event 1043 --json'],
  options: [
    choice('--status <status>', 'only pending, succeeded or failed deliveries', webhookDeliveryStatuses),
    option('--event <id>', 'only the deliveries of this event'),
    option('--limit <n>', 'at most this many (default 20, at most 100)'),
  ],
});
export type DeliveriesOpts = OptsOf<typeof deliveriesCommand>;

export const resendCommand = defineCommand({
  name: 'resend',
  args: '<id> <event-id>',
  summary: 'Deliver an event to an endpoint again (same webhook-id)',
  description:
    "Queues a new delivery of the event (an id of `reldist events list --json`, or of the delivery log) to the endpoint, whatever its type; it goes at once, retried as any delivery. Its webhook-id is the event's, as before, so a receiver that already handled it can tell.",
  examples: ['reldist webhook resend 3 1043'],
});

export const listenCommand = defineCommand({
  name: 'listen',
  safeToRerun: true,
  summary: "Forward the account's events, signed, to a local URL",
  description: `Follows the account's event feed (GET /events, long polls) from now (or after --since, an event id) and POSTs each event to --forward-to exactly as a webhook delivery would be (same body and headers), signed with a secret this command makes and prints once on stderr at start (whsec_…; set RELDIST_LISTEN_SECRET to use your own). One line per event on stdout: time, type, release, and the receiver's status (or what went wrong). A receiver that fails is not retried: the line says so. Ctrl-C stops it. ${EVENTS}`,
  examples: [
    'reldist webhook listen --forward-to http://localhost:3000/webhooks',
    'reldist webhook listen --forward-to http://127.0.0.1:8787/hook --events approved,rejected',
  ],
  options: [
    requiredOption('--forward-to <url>', 'the local URL to POST each event to'),
    option('--events <types>', 'event types to forward, comma-separated, or * (default *)'),
    option('--since <event-id>', 'start after this event instead of now'),
  ],
});
export type ListenOpts = OptsOf<typeof listenCommand>;

export const webhookGroup = defineGroup({
  name: 'webhook',
  summary: "Send the account's events to your URLs, signed and retried",
  examples: [
    'reldist webhook create https://hooks.example.com/reldist --events approved,rejected',
    'reldist webhook deliveries 3 --status failed',
    'reldist webhook listen --forward-to http://localhost:3000/webhooks',
  ],
  commands: [createCommand, listCommand, updateCommand, deleteCommand, testCommand, rotateCommand, deliveriesCommand, resendCommand, listenCommand],
});
