// One forwarded tools/call: the upstream's credentials for the caller (token exchange), the
// downstream request's progress and cancellation carried over, and an upstream's failure turned
// into a tool error the model can read, with every secret of the gateway taken out of it.
import { JsonRpcError } from '../jsonrpc/errors.js';
import { MetaKey } from '../protocol/version.js';
import type { CallCredentials, Secrets, UpstreamCredentials } from './credentials.js';
import type { Call } from './routing.js';
import { forwarded, relay } from './routing.js';
import { toolResult } from './served.js';
import type { Upstream } from './upstream.js';
import { UpstreamUnavailable } from './upstream.js';

/** The gateway's side of a forwarded call: its per-call credentials and its secrets. */
export interface ForwardVia {
  /** What the gateway presents to `upstream` per call (token exchange); undefined: nothing. */
  readonly credentials: (upstream: Upstream) => UpstreamCredentials | undefined;
  readonly secrets: Secrets;
}

/**
 * Calls `tool` of `upstream` with `args` within the downstream `call`, with the headers
 * `via.credentials` gives for the caller (none without). Resolves with the upstream's result, or an
 * `isError` result saying why it could not be had, `via.secrets` taken out; rejects only with the
 * upstream's JSON-RPC error, or when the downstream request was cancelled.
 */
export async function forwardToolCall(
  call: Call,
  request: { readonly upstream: Upstream; readonly tool: string; readonly args: unknown },
  via: ForwardVia,
): Promise<Record<string, unknown>> {
  const { ctx } = call;
  const { upstream, tool } = request;
  const args = request.args as Record<string, unknown>;
  const credentials = via.credentials(upstream);
  const { secrets } = via;
  const auth: CallCredentials = credentials === undefined ? {} : await credentials.forCall(ctx);
  if ('error' in auth) return { content: [{ type: 'text', text: auth.error }], isError: true };
  try {
    const options = forwarded(call);
    if (auth.headers !== undefined) options.headers = auth.headers;
    // Progress is asked of the upstream only when the downstream client asked for it.
    if (ctx.meta?.[MetaKey.ProgressToken] !== undefined) options.onProgress = relay(ctx);
    const result = await upstream.use((client) => client.callTool(tool, args, options));
    return toolResult(result);
  } catch (error) {
    if (error instanceof JsonRpcError || ctx.signal.aborted) throw error;
    if (!(error instanceof UpstreamUnavailable)) void upstream.check();
    const reason = error instanceof Error ? error.message : String(error);
    const text =
      error instanceof UpstreamUnavailable
        ? reason
        : `the server "${upstream.name}" behind this gateway failed to answer: ${reason}`;
    return { content: [{ type: 'text', text: secrets.redact(text) }], isError: true };
  }
}
