// Authorization server metadata (RFC 8414 section 3, then OpenID Connect Discovery 1.0 section
// 4): where an issuer publishes its keys and endpoints.
import { parseObject } from '../internal/json.js';
import { metadataUrls } from '../protocol/auth.js';
import type { AuthHttp } from './fetch.js';
import { AuthServerError, DEFAULT_AUTH_TIMEOUT_MS, fetchAnswer } from './fetch.js';

/**
 * The issuer's metadata document, found within `timeoutMs` in all (default 5 s). Throws when none
 * of its URLs answers one for this issuer, at once when the issuer does not answer in time or
 * answers more than 1 MiB (its other URLs are on the same server).
 */
export async function discover(
  issuer: string,
  doFetch: typeof fetch,
  timeoutMs: number = DEFAULT_AUTH_TIMEOUT_MS,
): Promise<Readonly<Record<string, unknown>>> {
  const http: AuthHttp = { fetch: doFetch, timeoutMs };
  const signal = AbortSignal.timeout(timeoutMs);
  let why = '';
  for (const url of metadataUrls(issuer)) {
    let answer;
    try {
      answer = await fetchAnswer(http, url, { headers: { accept: 'application/json' }, signal });
    } catch (error) {
      if (!(error instanceof AuthServerError) || error.failure !== 'unreachable') throw error;
      why = ` (${error.message})`;
      continue;
    }
    if (!answer.response.ok) continue;
    const document = parseObject(answer.text);
    // RFC 8414 section 3.3: the issuer in the document must be the one asked for.
    if (document?.['issuer'] === issuer) return document;
  }
  throw new Error(`no authorization server metadata found for ${issuer}${why}`);
}

/** The `jwks_uri` of `issuer`. */
export async function discoverJwksUri(
  issuer: string,
  doFetch: typeof fetch,
  timeoutMs?: number,
): Promise<string> {
  const document = await discover(issuer, doFetch, timeoutMs);
  const uri = document['jwks_uri'];
  if (typeof uri !== 'string') throw new Error(`the metadata of ${issuer} has no jwks_uri`);
  return uri;
}
