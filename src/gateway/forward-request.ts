// A resource read or prompt get forwarded to an upstream for a downstream request: tagged with
// it (./routing.ts), and carrying the caller's own upstream token when the upstream's
// credentials exchange tokens (RFC 8693), as a forwarded tool call does (./forward.ts).
import type { CallOptions, Client } from '../client/index.js';
import { ErrorCode, JsonRpcError } from '../jsonrpc/errors.js';
import type { HandlerContext } from '../server/index.js';
import type { UpstreamCredentials } from './credentials.js';
import type { Routing } from './routing.js';
import { forwarded } from './routing.js';
import { rethrow } from './served.js';
import type { Upstream } from './upstream.js';

/** What a forwarded request goes through: the gateway's routing and per-call credentials. */
export interface RequestVia {
  readonly routing: Routing;
  readonly credentials: (upstream: Upstream) => UpstreamCredentials | undefined;
}

/**
 * Sends `send` to `upstream` for the caller of `ctx`, with the options of a forwarded request
 * and the headers its credentials give that caller (none without). Rejects with the upstream's
 * JSON-RPC error as is, anything else as -32603 with its message; a caller the gateway could
 * not obtain a token for gets -32603 saying so (no secret in it).
 */
export async function forwardRequest<T>(
  via: RequestVia,
  { upstream, ctx }: { readonly upstream: Upstream; readonly ctx: HandlerContext },
  send: (client: Client, options: CallOptions) => Promise<T>,
): Promise<T> {
  const call = via.routing.start(upstream.name, ctx);
  try {
    const options = forwarded(call);
    const credentials = via.credentials(upstream);
    if (credentials !== undefined) {
      const auth = await credentials.forCall(ctx);
      if ('error' in auth) throw new JsonRpcError(ErrorCode.InternalError, auth.error);
      if (auth.headers !== undefined) options.headers = auth.headers;
    }
    return await upstream.use((client) => send(client, options));
  } catch (error) {
    return rethrow(error);
  } finally {
    call.end();
  }
}
