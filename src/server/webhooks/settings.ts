// The webhook settings of a service: what `serve` was told, else the defaults of its kind.
import type { ServerDeps, WebhookSettings } from '../handler.js';
import { DEFAULT_RETRY_HORIZON_MS } from './schedule.js';

export const DEFAULT_WEBHOOK_TIMEOUT_MS = 10_000;

export function webhookSettings(deps: Pick<ServerDeps, 'sandbox' | 'webhooks'>): WebhookSettings {
  return deps.webhooks ?? { retryHorizonMs: DEFAULT_RETRY_HORIZON_MS, timeoutMs: DEFAULT_WEBHOOK_TIMEOUT_MS, addresses: deps.sandbox ? 'loopback' : 'public' };
}
