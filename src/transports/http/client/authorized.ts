// Requests through an HttpAuthorizer: its headers on every request, and a refusal (401, 403)
// handed to it, the request sent again when it says so. Wraps the transport's one fetch, so
// POSTs, GET streams, DELETEs and the HTTP+SSE fallback are authorized alike.
import type { HttpAuthorizer } from '../../../protocol/auth.js';
import type { FetchLike } from './http.js';
import { discardBody } from './http.js';

/**
 * The most times one request is sent again after refusals: a backstop only, above what an
 * authorizer allows itself (mcpkit's OAuth client: at most 10 authorizations, each possibly
 * followed by a DPoP nonce retry), so the authorizer's own limit is the one a caller meets.
 */
const MAX_RESENDS = 24;

/** The transport's fetch: `fetchFn` (default: the global fetch), through `authorizer` if any. */
export function withAuthorizer(
  fetchFn: FetchLike | undefined,
  authorizer: HttpAuthorizer | undefined,
): FetchLike {
  const base = fetchFn ?? ((input, init) => fetch(input, init));
  return authorizer === undefined ? base : authorizedFetch(base, authorizer);
}

/**
 * A fetch that authorizes every request with `authorizer`. A request whose body is a stream
 * cannot be sent twice, so its refusal is returned as is (the transports send strings).
 */
export function authorizedFetch(fetchFn: FetchLike, authorizer: HttpAuthorizer): FetchLike {
  return async (url, init) => {
    const method = init.method ?? 'GET';
    for (let resends = 0; ; resends++) {
      const headers = new Headers(init.headers);
      const extra = await authorizer.headers({ url, method });
      for (const [name, value] of Object.entries(extra)) headers.set(name, value);
      const response = await fetchFn(url, { ...init, headers });
      const refusal = response.status === 401 || response.status === 403;
      const replayable = init.body === undefined || typeof init.body === 'string';
      if (!refusal || !replayable || resends >= MAX_RESENDS) return response;
      const again = await authorizer.refused({
        url,
        method,
        status: response.status,
        attempt: resends,
        wwwAuthenticate: response.headers.get('www-authenticate') ?? undefined,
        dpopNonce: response.headers.get('dpop-nonce') ?? undefined,
      });
      if (!again) return response;
      await discardBody(response);
    }
  };
}
