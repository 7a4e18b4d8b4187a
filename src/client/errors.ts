// Typed errors of the HTTP client: plain data (status, code, message, the error body's fields,
// problems and details, request id, retries, the network cause). What a person reads, and the
// exit code, is the CLI's business (src/cli/describe-client-error.ts): the arrow goes cli → client.
import type { Problem as ContractProblem } from '../contract/common.js';
import type { ErrorBody } from '../contract/errors.js';

/** The contract's Problem and error body: the client reads them, it does not restate them. */
export type Problem = ContractProblem;
type ErrorDetail = ErrorBody['error'];

export interface ApiErrorInit {
  status: number;
  code: string;
  message: string;
  requestId?: string | undefined;
  fields?: ErrorDetail['fields'] | undefined;
  problems?: Problem[] | undefined;
  /** Which existing resource the error is about (409 catalog_number_taken: the holding release). */
  details?: ErrorDetail['details'] | undefined;
  method: string;
  path: string;
  /** Set when the client gave up after retrying (429/5xx). */
  attempts?: number;
  retryAfterSeconds?: number | undefined;
}

/** Every non-2xx response becomes one of these. */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly requestId: string | undefined;
  readonly fields: ErrorDetail['fields'] | undefined;
  readonly problems: Problem[] | undefined;
  readonly details: ErrorDetail['details'] | undefined;
  readonly method: string;
  readonly path: string;
  readonly attempts: number;
  readonly retryAfterSeconds: number | undefined;

  constructor(init: ApiErrorInit) {
    super(init.message);
    this.name = 'ApiError';
    this.status = init.status;
    this.code = init.code;
    this.requestId = init.requestId;
    this.fields = init.fields;
    this.problems = init.problems;
    this.details = init.details;
    this.method = init.method;
    this.path = init.path;
    this.attempts = init.attempts ?? 1;
    this.retryAfterSeconds = init.retryAfterSeconds;
  }
}

/** The service stored other bytes than were sent (its sha256 is not the one computed while sending). */
export class UploadIntegrityError extends Error {
  readonly file: string;
  readonly sent: string;
  /** undefined when the upload host did not say. */
  readonly received: string | undefined;

  constructor(file: string, sent: string, received: string | undefined) {
    super(
      received === undefined
        ? `the upload host did not confirm the sha256 of ${file}`
        : `the service received ${file} with sha256 ${received}, but ${sent} was sent`,
    );
    this.name = 'UploadIntegrityError';
    this.file = file;
    this.sent = sent;
    this.received = received;
  }
}

/** The request never got an HTTP answer: refused, reset, timed out, DNS. */
export class NetworkError extends Error {
  readonly code: string;
  readonly baseUrl: string;
  readonly attempts: number;
  /** What went wrong, without the request's method and URL ("connection reset"). */
  readonly reason: string;
  /** The origin that failed when it is not the base URL's (an upload host the service pointed to). */
  readonly otherHost: string | undefined;

  constructor(message: string, init: { code: string; baseUrl: string; attempts?: number; cause?: unknown; reason?: string; otherHost?: string }) {
    super(message, { cause: init.cause });
    this.name = 'NetworkError';
    this.code = init.code;
    this.reason = init.reason ?? message;
    this.baseUrl = init.baseUrl;
    this.attempts = init.attempts ?? 1;
    this.otherHost = init.otherHost;
  }
}

/**
 * The base URL answered, but not as the release service would: an HTML page, or JSON of another
 * shape (a web site, another API, a proxy's login page). `answered` says what came back.
 */
export class ForeignServiceError extends Error {
  readonly baseUrl: string;
  readonly status: number;
  /** The content type that came back ("text/html"), or "JSON of another shape", or "an empty body". */
  readonly answered: string;

  constructor(init: { baseUrl: string; status: number; answered: string; method: string; path: string }) {
    super(`${init.method} ${init.path}: ${init.status}: not an answer of the release service (${init.answered})`);
    this.name = 'ForeignServiceError';
    this.baseUrl = init.baseUrl;
    this.status = init.status;
    this.answered = init.answered;
  }
}

/**
 * What a response says about who answered: undefined when it could be the release service,
 * else what came back instead. Only statuses our service always answers with its own body count:
 * a gateway's 5xx page, a proxy's 413 or 429 are still about the service behind them.
 */
export function foreignAnswer(status: number, headers: Record<string, string>, data: unknown, bodyText: string): string | undefined {
  const ok = status >= 200 && status < 300;
  if (!ok && (status >= 500 || status === 413 || status === 429)) return undefined;
  const isError = isRecord(data) && isRecord(data.error) && typeof data.error.message === 'string';
  if (ok ? typeof data === 'object' && data !== null : isError) return undefined;
  if (data !== undefined) return 'JSON of another shape';
  const type = (headers['content-type'] ?? '').split(';')[0]!.trim();
  return type || (bodyText ? 'a body without a content type' : 'an empty body');
}

/** A request body that fails the contract's schema: caught before anything is sent. */
export class RequestValidationError extends Error {
  readonly issues: { path: string; message: string }[];
  readonly endpoint: string;

  constructor(endpoint: string, issues: { path: string; message: string }[]) {
    const first = issues[0];
    super(first ? `invalid request for ${endpoint}: ${first.path || '(body)'}: ${first.message}` : `invalid request for ${endpoint}`);
    this.name = 'RequestValidationError';
    this.endpoint = endpoint;
    this.issues = issues;
  }
}

/**
 * A response that does not match the catalog's schema. Thrown only when responses are checked
 * (the test suite); in normal use the service is trusted (see ApiClient.typedResponse).
 */
export class ResponseContractError extends Error {
  readonly endpoint: string;
  readonly issues: { path: string; message: string }[];

  constructor(endpoint: string, issues: { path: string; message: string }[]) {
    const first = issues[0];
    const more = issues.length > 1 ? ` (and ${issues.length - 1} more)` : '';
    super(`the response of ${endpoint} does not match the contract: ${first ? `${first.path || '(body)'}: ${first.message}` : ''}${more}`);
    this.name = 'ResponseContractError';
    this.endpoint = endpoint;
    this.issues = issues;
  }
}

/**
 * Reads the service's error body (ErrorBody in the contract) field by field, without zod (an
 * error must not cost a one-shot command the schemas): what does not match is left out, and
 * the status line stands in for a missing message.
 */
export function apiErrorFrom(
  status: number,
  statusText: string,
  bodyText: string,
  headers: Record<string, string>,
  req: { method: string; path: string },
): ApiError {
  let parsed: unknown;
  try {
    parsed = bodyText ? JSON.parse(bodyText) : undefined;
  } catch {
    parsed = undefined;
  }
  return apiErrorOf(status, statusText, parsed, headers, req);
}

/** apiErrorFrom for a body already parsed (e.g. one result of a batch, which carries its own status). */
export function apiErrorOf(
  status: number,
  statusText: string,
  parsed: unknown,
  headers: Record<string, string>,
  req: { method: string; path: string },
): ApiError {
  const e = isRecord(parsed) && isRecord(parsed.error) ? parsed.error : undefined;
  const message = typeof e?.message === 'string' && e.message ? e.message : `${req.method} ${req.path}: ${status}${statusText ? ` ${statusText}` : ''}`;
  return new ApiError({
    status,
    code: typeof e?.code === 'string' ? e.code : defaultCode(status),
    message,
    requestId: typeof e?.request_id === 'string' ? e.request_id : headers['x-request-id'],
    fields: isFieldMessages(e?.fields) ? e.fields : undefined,
    problems: Array.isArray(e?.problems) ? e.problems.filter(isProblem) : undefined,
    details: isErrorDetails(e?.details) ? e.details : undefined,
    method: req.method,
    path: req.path,
  });
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

const isStringArray = (v: unknown): v is string[] => Array.isArray(v) && v.every((x) => typeof x === 'string');
const isOptionalString = (v: unknown): v is string | undefined => v === undefined || typeof v === 'string';

function isFieldMessages(v: unknown): v is NonNullable<ErrorDetail['fields']> {
  return isRecord(v) && Object.values(v).every(isStringArray);
}

function isProblem(v: unknown): v is Problem {
  return (
    isRecord(v) &&
    typeof v.code === 'string' &&
    typeof v.message === 'string' &&
    (v.severity === 'error' || v.severity === 'warning') &&
    isOptionalString(v.path) &&
    isOptionalString(v.hint)
  );
}

function isErrorDetails(v: unknown): v is NonNullable<ErrorDetail['details']> {
  return isRecord(v) && Number.isSafeInteger(v.release_id) && typeof v.status === 'string';
}

function defaultCode(status: number): string {
  const codes: Record<number, string> = {
    400: 'bad_request',
    401: 'unauthorized',
    403: 'forbidden',
    404: 'not_found',
    405: 'method_not_allowed',
    409: 'state_conflict',
    413: 'payload_too_large',
    415: 'unsupported_media_type',
    422: 'validation_failed',
    429: 'rate_limited',
    500: 'internal_error',
    502: 'bad_gateway',
    503: 'unavailable',
    504: 'gateway_timeout',
  };
  return codes[status] ?? `http_${status}`;
}
