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

// A signed URL's credential is its signature parameter (ours: `signature`; S3-style stores:
// X-Amz-Signature, Signature, sig, token): the rest of the URL may show, the credential not.
const SIGNED_URL_PARAM = /([?&](?:signature|x-amz-signature|x-goog-signature|sig|token|access_token)=)[^&#\s"'<>]+/gi;

/** A URL (or text with URLs) with the signature of any signed URL redacted. */
export function redactSignedUrls(text: string): string {
  return text.replace(SIGNED_URL_PARAM, '$1[redacted]');
}

/** Removes every occurrence of the given secrets, of bearer credentials and of URL signatures from free text. */
export function redactText(text: string, secrets: readonly (string | undefined)[]): string {
  let out = text;
  for (const s of secrets) {
    if (s && s.length >= 4) out = out.split(s).join('[redacted]');
  }
  // Webhook signing secrets (create and rotate-secret answers) in the Standard Webhooks form.
  out = out.replace(/whsec_[A-Za-z0-9+/]+=*/g, 'whsec_[redacted]');
  return redactSignedUrls(out.replace(/(Bearer\s+)[^\s"',]+/gi, '$1[redacted]'));
}
