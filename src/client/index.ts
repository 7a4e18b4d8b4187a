// The client's public face: one factory that picks the transport by the kind of work.
import { ApiClient, type ClientOptions, type Workload } from './client.js';
import { defaultTimeouts, proxyConfigured, type Timeouts, type Transport } from './transport.js';

export {
  ApiClient,
  pageOf,
  type ClientOptions,
  type ExchangeInfo,
  type RetryInfo,
  type CallOptions,
  type RawRequest,
  type RawResponse,
  type Workload,
} from './client.js';
export { ApiError, ForeignServiceError, NetworkError, RequestValidationError, UploadIntegrityError, apiErrorOf, type Problem } from './errors.js';
export { defaultRetryPolicy, type RetryPolicy } from './retry.js';
export { maskToken, redactText, redactHeaders } from './redact.js';
export { uploadTrackFile, uploadArtworkFile, hashFile, putFile, contentTypeOf, type UploadProgress, type UploadResult } from './upload.js';
export type { CheckpointStore, PartsSettings, UploadCheckpoint } from './upload-parts.js';

export interface CreateClientOptions extends Omit<ClientOptions, 'transportFor'> {
  env?: Readonly<Record<string, string | undefined>>;
  /** 'auto' (default): node:http for one-shot work, undici for long work and behind a proxy. */
  transport?: 'auto' | 'http' | 'undici';
  timeouts?: Timeouts;
}

export function chooseTransport(kind: 'auto' | 'http' | 'undici', workload: Workload, env: Readonly<Record<string, string | undefined>>): 'http' | 'undici' {
  if (kind !== 'auto') return kind;
  if (proxyConfigured(env)) return 'undici';
  return workload === 'long' ? 'undici' : 'http';
}

export function createClient(options: CreateClientOptions): ApiClient {
  const env = options.env ?? {};
  const timeouts = options.timeouts ?? defaultTimeouts;
  const kind = options.transport ?? 'auto';
  // One transport per implementation, shared by the workloads that map to it.
  const built = new Map<'http' | 'undici', Promise<Transport>>();
  const transportFor = (workload: Workload): Promise<Transport> => {
    const impl = chooseTransport(kind, workload, env);
    let t = built.get(impl);
    if (!t) {
      t =
        impl === 'http'
          ? import('./transport-http.js').then((m) => m.createHttpTransport(timeouts))
          : import('./transport-undici.js').then((m) => m.createUndiciTransport(env, timeouts));
      built.set(impl, t);
    }
    return t;
  };
  return new ApiClient({ ...options, transportFor });
}
export { callIfChanged, type ConditionalResult, type EtagEndpointId } from './conditional.js';
export { callSandbox, type SandboxBodyOf } from './sandbox.js';
