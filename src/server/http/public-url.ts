// The address a client should use to reach the service, as put in upload URLs. Never the bind
// address (0.0.0.0 or a container's own address means nothing to the client): the configured
// public URL, else the Host the client itself used; X-Forwarded-* only when a trusted proxy sets them.

export interface PublicUrlOptions {
  /** e.g. https://reldist.example.com (a trailing slash is dropped). */
  publicUrl?: string;
  trustProxy: boolean;
  /** Where the service listens: only for a request without a usable Host (HTTP/1.0). */
  fallback(): string;
}

// A host name or address with an optional port; anything else in Host is not put in a URL.
const HOST = /^(?:[A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/;

/** Returns the per-request base URL function the app calls with the request's headers. */
export function publicBaseUrl(options: PublicUrlOptions): (header: (name: string) => string | undefined) => string {
  if (options.publicUrl) {
    const fixed = options.publicUrl.replace(/\/+$/, '');
    return () => fixed;
  }
  return (header) => {
    const first = (name: string) => header(name)?.split(',')[0]?.trim();
    const forwardedHost = options.trustProxy ? first('x-forwarded-host') : undefined;
    const forwardedProto = options.trustProxy ? first('x-forwarded-proto')?.toLowerCase() : undefined;
    const host = [forwardedHost, header('host')?.trim()].find((h) => h !== undefined && HOST.test(h));
    if (!host) return options.fallback();
    const proto = forwardedProto === 'https' || forwardedProto === 'http' ? forwardedProto : 'http';
    return `${proto}://${host}`;
  };
}
