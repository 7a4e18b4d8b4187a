// What a person reads when the HTTP client fails: one line, a hint, an exit code. The client's
// errors are plain data; this is where they get words. Type-only imports of the client: an offline
// command must not load it just to be able to report errors (the classes are told apart by name).
import type { ApiError, ForeignServiceError, NetworkError, RequestValidationError, UploadIntegrityError } from '../client/errors.js';
import { ExitCode } from './errors.js';
import { inCliTerms } from './service-text.js';

export interface ClientErrorText {
  message: string;
  exitCode: number;
  hint?: string;
  code: string;
  /** One line per problem, shown above the error. */
  details?: string[];
}

const AUTH_HINT = 'run `reldist auth login` or set RELDIST_TOKEN';

/** The words for an error of the HTTP client; undefined for anything else. */
export function describeClientError(err: unknown): ClientErrorText | undefined {
  if (!(err instanceof Error)) return undefined;
  if (err.name === 'ApiError') return apiErrorText(err as ApiError);
  if (err.name === 'NetworkError') return networkErrorText(err as NetworkError);
  if (err.name === 'RequestValidationError') return requestErrorText(err as RequestValidationError);
  if (err.name === 'ForeignServiceError') return foreignServiceText(err as ForeignServiceError);
  if (err.name === 'UploadIntegrityError') return uploadIntegrityText(err as UploadIntegrityError);
  return undefined;
}

function apiErrorText(e: ApiError): ClientErrorText {
  const rid = e.requestId ? ` (request ${e.requestId})` : '';
  // Without a message of the service's, the client says "GET /path: 418 …": the CLI says it in words.
  const said = e.message.startsWith(`${e.method} ${e.path}: `)
    ? `the service answered ${e.message.slice(e.method.length + e.path.length + 3)}`
    : inCliTerms(e.message);
  const base = `${said}${rid}`;
  if (e.status === 401) return { message: base, exitCode: ExitCode.auth, hint: AUTH_HINT, code: e.code };
  if (e.status === 404) return { message: base, exitCode: ExitCode.notFound, code: e.code };
  // Only the release's state is a state conflict: the other 409s are a taken catalog number (its
  // command says which release holds it), an account out of codes, or a request still running (below).
  if (e.code === 'state_conflict') return { message: base, exitCode: ExitCode.conflict, code: e.code };
  if (e.status === 422 && (e.code === 'submit_blocked' || e.code === 'validation_failed')) {
    const first = firstFieldError(e);
    const n = countIssues(e);
    const more = n > 1 ? ` (and ${n - 1} more; use --json to see all)` : '';
    const withFirst = first && !said.includes(first) ? `${base}: ${first}` : base;
    return { message: `${withFirst}${more}`, exitCode: ExitCode.validation, code: e.code };
  }
  if (e.status === 429) {
    return {
      message: `${base}${e.attempts > 1 ? ` after ${e.attempts} attempts` : ''}`,
      exitCode: ExitCode.rateLimited,
      hint:
        e.retryAfterSeconds !== undefined ? `the service asks to wait ${e.retryAfterSeconds}s before trying again` : 'wait a moment and run the command again',
      code: e.code,
    };
  }
  if (e.status === 409 && e.code === 'idempotency_in_progress') {
    // The client waited its in-progress budget (retry.ts) and the first attempt still runs.
    return {
      message: `${base}${e.attempts > 1 ? ` after ${e.attempts} attempts` : ''}`,
      exitCode: ExitCode.rateLimited,
      hint: 'an earlier attempt of this change is still running on the service; wait a minute and check what it did before running the command again',
      code: e.code,
    };
  }
  if (e.attempts > 1 && (e.status === 502 || e.status === 503 || e.status === 504)) {
    return {
      message: `${base} after ${e.attempts} attempts`,
      exitCode: ExitCode.rateLimited,
      hint: 'the service is unavailable; try again later',
      code: e.code,
    };
  }
  return { message: `${base}${e.attempts > 1 ? ` after ${e.attempts} attempts` : ''}`, exitCode: ExitCode.failure, code: e.code };
}

/** The first field error, as `path: message`, for a one-line report. */
function firstFieldError(e: ApiError): string | undefined {
  for (const [path, messages] of Object.entries(e.fields ?? {})) {
    if (messages[0]) return `${path}: ${inCliTerms(messages[0])}`;
  }
  const p = e.problems?.find((x) => x.severity !== 'warning') ?? e.problems?.[0];
  return p ? `${p.path ? `${p.path}: ` : ''}${inCliTerms(p.message)}` : undefined;
}

function countIssues(e: ApiError): number {
  return Object.values(e.fields ?? {}).reduce((n, m) => n + m.length, 0) + (e.problems?.filter((p) => p.severity !== 'warning').length ?? 0);
}

/** The transports' codes for an answer that did not come within the idle timeout (not a connect timeout). */
const NO_ANSWER_IN_TIME = new Set(['ETIMEDOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT']);

function networkErrorText(e: NetworkError): ClientErrorText {
  // An upload address the service handed out: name that host, not the base URL (which answered).
  if (e.otherHost) {
    const refused = e.code === 'ECONNREFUSED';
    return {
      message: `${refused ? 'cannot connect to' : 'no answer from'} the upload host ${e.otherHost}: ${refused ? 'connection refused' : e.reason}`,
      exitCode: ExitCode.failure,
      hint: `the service at ${e.baseUrl} hands out upload addresses on ${e.otherHost}; is that host reachable from here? (a service behind a proxy needs --public-url)`,
      code: refused ? 'connection_refused' : 'network_error',
    };
  }
  if (e.code === 'ECONNREFUSED') {
    return {
      message: `cannot connect to ${e.baseUrl}: connection refused`,
      exitCode: ExitCode.failure,
      hint: 'is the service running? check --base-url, RELDIST_BASE_URL or `reldist auth status`',
      code: 'connection_refused',
    };
  }
  const after = e.attempts > 1 ? ` after ${e.attempts} attempts` : '';
  // A service that hangs is a timeout, not a failure to retry later: the script's "timed out" (7).
  if (NO_ANSWER_IN_TIME.has(e.code)) {
    return {
      message: `no answer from ${e.baseUrl} in time: ${e.reason}${after}`,
      exitCode: ExitCode.timedOut,
      hint: 'is the service up? a change it was asked for may or may not be done: `reldist release list` shows what exists',
      code: 'timed_out',
    };
  }
  const exitCode = e.attempts > 1 ? ExitCode.rateLimited : ExitCode.failure;
  return { message: `no answer from ${e.baseUrl}: ${e.reason}${after}`, exitCode, code: 'network_error' };
}

function requestErrorText(e: RequestValidationError): ClientErrorText {
  const more = e.issues.length > 1 ? ` (and ${e.issues.length - 1} more)` : '';
  // A bad field is bad input: a usage error, found before anything was sent.
  const details = e.issues.length > 1 ? e.issues.map((i) => `${i.path || '(body)'}: ${i.message}`) : undefined;
  return { message: `${e.message}${more}`, exitCode: ExitCode.usage, code: 'invalid_request', ...(details ? { details } : {}) };
}

function foreignServiceText(e: ForeignServiceError): ClientErrorText {
  return {
    message: `${e.baseUrl} does not look like the release service: it answered ${e.answered}`,
    exitCode: ExitCode.failure,
    hint: 'check the base URL: --base-url, RELDIST_BASE_URL, or the profile `reldist auth status` shows',
    code: 'not_the_service',
  };
}

function uploadIntegrityText(e: UploadIntegrityError): ClientErrorText {
  return {
    message:
      e.received === undefined
        ? `${e.file}: the upload host did not confirm the file's sha256, so the upload cannot be trusted`
        : `${e.file}: the service received other bytes than were sent (sha256 ${e.received}, sent ${e.sent})`,
    exitCode: ExitCode.failure,
    hint: 'did the file change while it was being uploaded? upload it again',
    code: 'upload_mismatch',
  };
}
