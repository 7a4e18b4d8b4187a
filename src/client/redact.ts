// Tokens must never reach a terminal, a log or a CI transcript, even under --debug.

const SENSITIVE_HEADERS = new Set(['authorization', 'proxy-authorization', 'cookie', 'set-cookie', 'x-api-key']);

/** `rd_…abcd`: enough to tell two tokens apart, not enough to use one. */
export function maskToken(token: string): string {
  if (token.length <= 8) return '…';
  const prefix = /^[a-z]+_/i.exec(token)?.[0] ?? '';
  return `${prefix}…${token.slice(-4)}`;
}

export function redactHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers)) {
    if (v === undefined) continue;
    const value = Array.isArray(v) ? v.join(', ') : v;
    if (SENSITIVE_HEADERS.has(k.toLowerCase())) {
      const scheme = /^(\w+)\s+/.exec(value)?.[1];
      out[k] = scheme ? `${scheme} [redacted]` : '[redacted]';
    } else {
      out[k] = value;
    }
  }
  return out;
}

/** Removes every occurrence of the given secrets and of bearer credentials from free text. */
export function redactText(text: string, secrets: readonly (string | undefined)[]): string {
  let out = text;
  for (const s of secrets) {
    if (s && s.length >= 4) out = out.split(s).join('[redacted]');
  }
  return out.replace(/(Bearer\s+)[^\s"',]+/gi, '$1[redacted]');
}
