// A request in the user's words, never its path or address (an upload's is a signed URL): for the
// --timeout line ("waiting for the service to list releases") and the line each retry prints.
import type { ExchangeInfo, RetryInfo } from '../client/index.js';
import { routes } from '../contract/routes.js';

/** The route's summary ("create a release (draft)"). */
export function requestWords(info: ExchangeInfo): string {
  const summary = info.endpointId ? routes[info.endpointId].summary : undefined;
  if (summary) return summary.charAt(0).toLowerCase() + summary.slice(1);
  // The one request outside the catalog that a command sends: an audio file to its upload address.
  return info.method === 'PUT' ? 'receive an audio file' : 'answer a request';
}

/** One line per retry: what, why, the wait and the attempt about to be made, of how many. */
export function retryLine(info: RetryInfo): string {
  const wait = `${(info.delayMs / 1000).toFixed(1)}s`;
  const which = info.attempt !== undefined && info.maxRetries !== undefined ? ` (attempt ${info.attempt + 1} of ${info.maxRetries + 1})` : '';
  return `retrying in ${wait}${which}: ${requestWords(info.request)}: ${why(info)}`;
}

const STATUS_WORDS: Readonly<Record<number, string>> = {
  429: 'the service answered 429 (too many requests)',
  500: 'the service answered 500 (internal error)',
  502: 'a gateway answered 502 (bad gateway)',
  503: 'the service answered 503 (unavailable)',
  504: 'a gateway answered 504 (gateway timeout)',
};

const CUT = new Set(['ECONNRESET', 'EPIPE', 'ECONNABORTED', 'UND_ERR_SOCKET', 'UND_ERR_CLOSED']);
const TIMED_OUT = new Set(['ETIMEDOUT', 'UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT']);

function why(info: RetryInfo): string {
  if (info.code === 'idempotency_in_progress') return 'an earlier attempt of the same change is still running on the service';
  if (info.code === 'upload_in_progress') return 'the same file is arriving from another run; waiting for it rather than sending it twice';
  if (info.status !== undefined) return STATUS_WORDS[info.status] ?? `the service answered ${info.status}`;
  const code = info.code ?? info.reason;
  if (CUT.has(code)) return `the connection was cut (${code})`;
  if (TIMED_OUT.has(code)) return `no answer in time (${code})`;
  if (code === 'EAI_AGAIN') return 'the host name could not be looked up for now (EAI_AGAIN)';
  return code;
}
