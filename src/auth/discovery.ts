// Authorization server metadata (RFC 8414 section 3, then OpenID Connect Discovery 1.0 section
// 4): where an issuer publishes its keys and endpoints.
import { metadataUrls } from '../protocol/auth.js';

/** The issuer's metadata document; throws when none of its URLs answers one for this issuer. */
export async function discover(
  issuer: string,
  doFetch: typeof fetch,
): Promise<Readonly<Record<string, unknown>>> {
  for (const url of metadataUrls(issuer)) {
    const response = await doFetch(url, { headers: { accept: 'application/json' } }).catch(
      () => undefined,
    );
    if (response?.ok !== true) continue;
    const document = (await response.json().catch(() => undefined)) as
      Record<string, unknown> | undefined;
    // RFC 8414 section 3.3: the issuer in the document must be the one asked for.
    if (document?.['issuer'] === issuer) return document;
  }
  throw new Error(`no authorization server metadata found for ${issuer}`);
}

/** The `jwks_uri` of `issuer`. */
export async function discoverJwksUri(issuer: string, doFetch: typeof fetch): Promise<string> {
  const document = await discover(issuer, doFetch);
  const uri = document['jwks_uri'];
  if (typeof uri !== 'string') throw new Error(`the metadata of ${issuer} has no jwks_uri`);
  return uri;
}
