// Webhook endpoints: create (the secret answered once), list, read, update, delete, test (a signed
// ping sent now), rotate the secret (the old one signs too for an overlap), the delivery log, and
// resending an event. The deliveries themselves are queued with each event (store/events.ts) and
// sent by the dispatcher (webhooks/dispatcher.ts).
import { randomBytes } from 'node:crypto';
import { webhookBody, webhookDeliveriesPage, webhookLimits, webhookTestType } from '../../contract/wire-values.js';
import { ServiceError, notFound, validationFailed, type HandlerMap, type ServerDeps } from '../handler.js';
import { eventById } from '../store/events.js';
import { parseId } from '../store/ids.js';
import {
  countEndpoints,
  deleteEndpoint,
  endpointWithUrl,
  deliveryById,
  findEndpoint,
  insertEndpoint,
  listDeliveries,
  listEndpoints,
  queueResend,
  rotateSecret,
  toWebhookResource,
  updateEndpoint,
  type EndpointRow,
} from '../store/webhooks.js';
import { AddressRefused, checkUrlAddress } from '../webhooks/address.js';
import { postWebhook } from '../webhooks/send.js';
import { webhookSettings } from '../webhooks/settings.js';
import { newWebhookSecret, signDelivery, signingSecrets } from '../webhooks/sign.js';
import { deliveriesQueued } from '../webhooks/wake.js';

const iso = (deps: ServerDeps) => deps.now().toISOString();

function endpointOf(deps: ServerDeps, userId: number, rawId: unknown): EndpointRow {
  const id = parseId(rawId, 'webhook');
  const row = findEndpoint(deps.db, userId, id);
  if (!row) throw notFound(`webhook ${id}`);
  return row;
}

/** An http(s) URL whose host resolves only to addresses the service may send to; else 422 on `url`. */
async function checkedUrl(deps: ServerDeps, text: string): Promise<string> {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw validationFailed({ url: [`"${text}" is not a URL; expected https://… or http://…`] });
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw validationFailed({ url: [`expected an http or https URL, got ${url.protocol.replace(':', '')}`] });
  if (url.username || url.password) throw validationFailed({ url: ['must not hold a user name or password; authenticate deliveries by their signature'] });
  try {
    await checkUrlAddress(url, webhookSettings(deps).addresses);
  } catch (e) {
    if (e instanceof AddressRefused) throw validationFailed({ url: [e.message] });
    throw validationFailed({ url: [`${url.hostname} does not resolve (${(e as NodeJS.ErrnoException).code ?? 'DNS error'})`] });
  }
  url.hash = '';
  return url.href;
}

export const handlers: HandlerMap = {
  async createWebhook({ user, body, commit }, deps) {
    const url = await checkedUrl(deps, body.url);
    const secret = newWebhookSecret();
    return commit(() => {
      if (countEndpoints(deps.db, user.id) >= webhookLimits.maxPerAccount) {
        throw new ServiceError(
          409,
          'state_conflict',
          `this account already has ${webhookLimits.maxPerAccount} webhook endpoints, the most it may have; delete one first`,
        );
      }
      // One endpoint per URL: a create run again (after a lost answer) finds what the first made.
      const same = endpointWithUrl(deps.db, user.id, url);
      if (same)
        throw new ServiceError(
          409,
          'state_conflict',
          `webhook ${same.id} already delivers to ${url}; change it (PATCH /webhooks/${same.id}) or rotate its secret`,
        );
      const now = iso(deps);
      const id = insertEndpoint(deps.db, user.id, { url, description: body.description ?? null, events: body.events, enabled: body.enabled, secret }, now);
      return { ...toWebhookResource(findEndpoint(deps.db, user.id, id)!, now), secret };
    });
  },

  listWebhooks: ({ user }, deps) => listEndpoints(deps.db, user.id).map((r) => toWebhookResource(r, iso(deps))),

  getWebhook: ({ user, params }, deps) => toWebhookResource(endpointOf(deps, user.id, params.webhookId), iso(deps)),

  async updateWebhook({ user, params, body, commit }, deps) {
    endpointOf(deps, user.id, params.webhookId);
    const url = body.url === undefined ? undefined : await checkedUrl(deps, body.url);
    return commit(() => {
      // Read again under the write lock: the URL check above awaited.
      const row = endpointOf(deps, user.id, params.webhookId);
      const same = url === undefined ? undefined : endpointWithUrl(deps.db, user.id, url);
      if (same && same.id !== row.id) throw new ServiceError(409, 'state_conflict', `webhook ${same.id} already delivers to ${url}`);
      const now = iso(deps);
      updateEndpoint(
        deps.db,
        row.id,
        {
          url: url ?? row.url,
          description: body.description === undefined ? row.description : body.description,
          events: body.events ?? (JSON.parse(row.events) as string[]),
          enabled: body.enabled ?? row.enabled === 1,
        },
        now,
      );
      return toWebhookResource(findEndpoint(deps.db, user.id, row.id)!, now);
    });
  },

  deleteWebhook({ user, params }, deps) {
    return deps.db
      .transaction(() => {
        const row = endpointOf(deps, user.id, params.webhookId);
        deleteEndpoint(deps.db, row.id);
        return { message: `Webhook ${row.id} (${row.url}) deleted, with its delivery log.` };
      })
      .immediate();
  },

  async testWebhook({ user, params, commit }, deps) {
    const row = endpointOf(deps, user.id, params.webhookId);
    const settings = webhookSettings(deps);
    const at = deps.now();
    const msgId = `msg_test_${randomBytes(8).toString('hex')}`;
    const body = webhookBody(
      webhookTestType,
      { webhook_id: row.id, message: 'A test delivery from reldist: your endpoint receives and verifies webhooks.' },
      at,
    );
    const r = await postWebhook(row.url, { ...signDelivery(msgId, at, body, signingSecrets(row, at.toISOString())) }, body, {
      timeoutMs: settings.timeoutMs,
      policy: settings.addresses,
      signal: AbortSignal.timeout(settings.timeoutMs + 1000),
    });
    // Nothing written: the answer alone is kept for its Idempotency-Key (a retry does not ping again).
    return commit(() => ({ webhook_id: msgId, delivered: r.delivered, status_code: r.statusCode, error: r.error, duration_ms: r.durationMs }));
  },

  rotateWebhookSecret({ user, params, body }, deps) {
    const secret = newWebhookSecret();
    return deps.db
      .transaction(() => {
        const row = endpointOf(deps, user.id, params.webhookId);
        const now = deps.now();
        const overlapEnds = new Date(now.getTime() + body.overlap_seconds * 1000).toISOString();
        rotateSecret(deps.db, row.id, secret, now.toISOString(), overlapEnds);
        return { ...toWebhookResource(findEndpoint(deps.db, user.id, row.id)!, now.toISOString()), secret };
      })
      .immediate();
  },

  listWebhookDeliveries({ user, params, query }, deps) {
    const row = endpointOf(deps, user.id, params.webhookId);
    const page = listDeliveries(
      deps.db,
      row.id,
      { eventId: query.event_id, status: query.status, before: query.before },
      query.limit ?? webhookDeliveriesPage.defaultLimit,
    );
    return { data: page.deliveries, has_more: page.hasMore, cursor: page.deliveries.at(-1)?.id ?? 0 };
  },

  resendWebhookEvent({ user, params, body }, deps) {
    return deps.db
      .transaction(() => {
        const row = endpointOf(deps, user.id, params.webhookId);
        const event = eventById(deps.db, user.id, body.event_id);
        if (!event) throw validationFailed({ event_id: [`event ${body.event_id} not found among this account's events`] });
        const id = queueResend(deps.db, row.id, event.id, event.type, iso(deps));
        deliveriesQueued(deps.db);
        return deliveryById(deps.db, id)!;
      })
      .immediate();
  },
};
