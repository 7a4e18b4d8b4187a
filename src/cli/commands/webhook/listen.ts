// `webhook listen --forward-to URL`: follows the account's event feed and POSTs each event to a
// local URL exactly as a webhook delivery is sent (the same body, the Standard Webhooks headers),
// signed with a secret made here and printed once at start, like `stripe listen`. No public
// endpoint is needed: the events come over the feed this command reads. One line per event.
import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import type { EventResource } from '../../../contract/events.js';
import { webhookBody, webhookMessageId } from '../../../contract/wire-values.js';
import type { Context } from '../../context.js';
import { CliError, ExitCode, UsageError } from '../../errors.js';
import { intOption } from '../../shared/args.js';
import { eventsAfter, feedEnd } from '../../shared/event-feed.js';
import { tsvCell, writeStderr } from '../../output/index.js';
import type { ListenOpts } from './spec.js';
import { eventsOption } from './views.js';

/** One forward's whole exchange, as the service's own deliveries (10 s). */
const FORWARD_TIMEOUT_MS = 10_000;

function forwardUrl(value: string): URL {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new UsageError(`--forward-to: "${value}" is not a URL (e.g. http://localhost:3000/webhooks)`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new UsageError(`--forward-to: expected an http or https URL, got "${value}"`);
  return url;
}

function secretOf(ctx: Context): string {
  const given = ctx.env.RELDIST_LISTEN_SECRET?.trim();
  if (!given) return `whsec_${randomBytes(24).toString('base64')}`;
  try {
    new Webhook(given);
  } catch {
    throw new UsageError('RELDIST_LISTEN_SECRET: expected a secret like whsec_<base64>');
  }
  return given;
}

interface Forwarded {
  status: number | null;
  error: string | null;
  ms: number;
}

async function forward(url: URL, e: EventResource, signer: Webhook, signal: AbortSignal): Promise<Forwarded> {
  const started = performance.now();
  const at = new Date();
  const body = webhookBody(e.type, e, at);
  const id = webhookMessageId(e.id);
  const headers = {
    'content-type': 'application/json',
    'user-agent': 'reldist-webhooks/1 (listen)',
    'webhook-id': id,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': signer.sign(id, at, body),
  };
  try {
    const res = await fetch(url, {
      method: 'POST',
      headers,
      body,
      redirect: 'manual',
      signal: AbortSignal.any([signal, AbortSignal.timeout(FORWARD_TIMEOUT_MS)]),
    });
    await res.arrayBuffer().catch(() => undefined);
    const ok = res.status >= 200 && res.status < 300;
    return { status: res.status, error: ok ? null : `answered ${res.status}`, ms: Math.round(performance.now() - started) };
  } catch (err) {
    if (signal.aborted) throw signal.reason;
    const cause = (err as { cause?: { code?: string } }).cause?.code;
    const why = (err as Error).name === 'TimeoutError' ? `no answer within ${FORWARD_TIMEOUT_MS / 1000} s` : `${cause ?? 'error'}: could not reach ${url.host}`;
    return { status: null, error: why, ms: Math.round(performance.now() - started) };
  }
}

function line(ctx: Context, e: EventResource, f: Forwarded): string {
  if (ctx.globals.json)
    return `${JSON.stringify({ event_id: e.id, type: e.type, created_at: e.created_at, release_id: e.release_id, catalog_number: e.catalog_number, status: f.status, error: f.error, duration_ms: f.ms })}\n`;
  const release = e.catalog_number ? `${e.release_id} ${e.catalog_number}` : String(e.release_id);
  if (!ctx.io.stdoutIsTTY)
    return `${[e.id, e.created_at, e.type, e.release_id, e.catalog_number ?? '', f.status ?? '', f.error ?? ''].map((v) => tsvCell(String(v))).join('\t')}\n`;
  const time = e.created_at.replace('T', ' ').replace(/\.\d+Z$/, 'Z');
  const outcome = f.error === null ? `[${f.status}]` : `[${f.status ?? 'ERR'}] ${f.error}`;
  return `${time}  --> ${e.type} evt_${e.id}  release ${release}  <-- ${outcome} (${f.ms} ms)\n`;
}

export async function run(ctx: Context, opts: ListenOpts): Promise<void> {
  const target = forwardUrl(opts.forwardTo);
  const wanted = eventsOption(opts.events);
  const since = intOption(opts.since, '--since', 0, Number.MAX_SAFE_INTEGER);
  const secret = secretOf(ctx);
  const signer = new Webhook(secret);
  const client = await ctx.services.client();
  const start = since ?? (await feedEnd(client, ctx.signal));
  if (start === undefined)
    throw new CliError('this service keeps no event log, so there is nothing to listen to', { exitCode: ExitCode.failure, code: 'no_event_log' });
  // The secret is what the receiver verifies with: shown once, on stderr, whatever stdout is.
  writeStderr(ctx, `Ready: forwarding the account's events to ${target.href} (after event ${start}); Ctrl-C to stop.\nSigning secret: ${secret}\n`);
  const all = !wanted || wanted.includes('*');
  for await (const e of eventsAfter(client, {}, start, ctx.signal, true)) {
    if (!all && !wanted.includes(e.type)) continue;
    ctx.io.stdout.write(line(ctx, e, await forward(target, e, signer, ctx.signal)));
  }
}
