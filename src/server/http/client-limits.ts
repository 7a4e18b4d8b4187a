// How long a client may take over each part of an exchange, so that slow clients (slowloris:
// headers a byte at a time, bodies that trickle, sockets opened and left) cannot hold the
// service's connections. What nginx and Go's net/http bound too: the headers, the body (here by
// a minimum rate, so a slow but moving upload lives), the idle keep-alive connection.

export interface ClientLimits {
  /** From a connection's opening (or the first byte of its next request) to the end of the request's headers. */
  headersTimeoutMs: number;
  /** An idle keep-alive connection is closed after this (Node adds 1 s before closing). */
  keepAliveTimeoutMs: number;
  /** A request body other than an upload (JSON, at most 1 MiB) must arrive whole within this. */
  bodyTimeoutMs: number;
  /** Bodies and uploads must deliver at least this many bytes per second, judged over each window. */
  minBodyRate: number;
  /** The window the minimum rate is judged over: a body that sends fewer than minBodyRate × window bytes in one is cut. */
  bodyRateWindowMs: number;
}

/**
 * Headers in 30 s (nginx allows 60 s; a request's headers are a few hundred bytes). Bodies: at
 * least 1 KiB/s over every 20 s (Apache's mod_reqtimeout asks 500 bytes/s): an office line of
 * 64 kbit/s sends 8 KiB/s, a trickle of a byte a second is cut.
 */
export const DEFAULT_CLIENT_LIMITS: ClientLimits = {
  headersTimeoutMs: 30_000,
  keepAliveTimeoutMs: 5_000,
  bodyTimeoutMs: 60_000,
  minBodyRate: 1024,
  bodyRateWindowMs: 20_000,
};

/**
 * How often the bounds are checked: Node checks the headers bound on an interval
 * (`connectionsCheckingInterval`, 30 s by default, far too coarse), and slow bodies are swept on
 * one too. A cut comes at most this late: a tenth of the bound, between 100 ms and 1 s.
 */
export function checkingIntervalMs(boundMs: number): number {
  return Math.min(1000, Math.max(100, Math.floor(boundMs / 10)));
}

/** The per-address cap when only the total is given: a quarter of it, so that one address cannot take every slot. */
export function defaultPerAddress(maxConnections: number): number {
  return Math.max(1, Math.ceil(maxConnections / 4));
}

/** `1 KiB`, `30 s`: for log lines and refusals. */
export function bytesInWords(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  if (bytes < 1024 * 1024) return `${+(bytes / 1024).toFixed(1)} KiB`;
  return `${+(bytes / 1024 ** 2).toFixed(1)} MiB`;
}

export function secondsInWords(ms: number): string {
  return `${+(ms / 1000).toFixed(1)}s`;
}
