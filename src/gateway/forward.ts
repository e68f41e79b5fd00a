// One forwarded tools/call: the upstream's credentials for the caller (token exchange), the
// downstream request's progress and cancellation carried over, and an upstream's failure turned
// into a tool error the model can read, with every secret of the gateway taken out of it.
import { messageOf } from '../internal/message-of.js';
import { JsonRpcError } from '../jsonrpc/errors.js';
import { MetaKey } from '../protocol/version.js';
import type { CallToolResult } from '../client/index.js';
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
 * Calls `tool` of `upstream` with `args` for the downstream `call` (started by Routing.start:
 * ended here, once the upstream answered or failed), with the headers `via.credentials` gives for
 * the caller (none without). Resolves with the upstream's result, or an `isError` result saying
 * why it could not be had, `via.secrets` taken out; rejects only with the upstream's JSON-RPC
 * error, or when the downstream request was cancelled. No async function: the upstream's answer
 * reaches the handler's caller through one reaction (the path of every forwarded call).
 */
export function forwardToolCall(
  call: Call,
  request: ToolRequest,
  via: ForwardVia,
): Promise<Record<string, unknown>> {
  const credentials = via.credentials(request.upstream);
  if (credentials === undefined) return send(call, request, via.secrets);
  return credentials.forCall(call.ctx).then(
    (auth: CallCredentials) => {
      if (!('error' in auth)) {
        const { upstream, tool, args } = request;
        return send(call, { upstream, tool, args, headers: auth.headers }, via.secrets);
      }
      call.end();
      return { content: [{ type: 'text', text: auth.error }], isError: true };
    },
    (error: unknown) => {
      call.end();
      throw error;
    },
  );
}

/** A tool call to forward: the upstream, the tool by its upstream name, and the arguments. */
interface ToolRequest {
  readonly upstream: Upstream;
  readonly tool: string;
  readonly args: Record<string, unknown>;
  /** The credentials' headers for this caller, if any. */
  readonly headers?: Readonly<Record<string, string>> | undefined;
}

/** Sends the call to the upstream; ends `call` once it settles. */
function send(
  call: Call,
  request: ToolRequest,
  secrets: Secrets,
): Promise<Record<string, unknown>> {
  const { ctx } = call;
  const { upstream, tool, args, headers } = request;
  let sent: Promise<CallToolResult>;
  try {
    const options = forwarded(call);
    if (headers !== undefined) options.headers = headers;
    // Progress is asked of the upstream only when the downstream client asked for it.
    if (ctx.meta?.[MetaKey.ProgressToken] !== undefined) options.onProgress = relay(ctx);
    sent = upstream.use((client) => client.callTool(tool, args, options));
  } catch (error) {
    // What was thrown, as is: answered below as an upstream's failure would be.
    // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors
    sent = Promise.reject(error);
  }
  return sent.then(
    (result) => {
      call.end();
      return toolResult(result);
    },
    (error: unknown) => {
      call.end();
      return failed(call, upstream, { error, secrets });
    },
  );
}

/** An upstream's failure as the tool's `isError` result; its JSON-RPC error (or a cancel) rethrown. */
function failed(
  call: Call,
  upstream: Upstream,
  { error, secrets }: { readonly error: unknown; readonly secrets: Secrets },
): Record<string, unknown> {
  if (error instanceof JsonRpcError || call.ctx.signal.aborted) throw error;
  if (!(error instanceof UpstreamUnavailable)) void upstream.check();
  const reason = messageOf(error);
  const text =
    error instanceof UpstreamUnavailable
      ? reason
      : `the server "${upstream.name}" behind this gateway failed to answer: ${reason}`;
  return { content: [{ type: 'text', text: secrets.redact(text) }], isError: true };
}
