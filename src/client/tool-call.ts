// tools/call as the client sends it, the hot path of a client: through the extensions' tool-call
// hooks when there are any (the tasks extension sends a 2025-11-25 call as a task). 2026-07-28: with the `Mcp-Param-*` headers the tool's definition asks for (the tools
// listed first when the tool was never seen), retried once on HeaderMismatch when a fresh
// definition's headers differ. A successful result is checked against the tool's outputSchema.
import { isPromise } from '../internal/maybe.js';
import { JsonRpcError } from '../jsonrpc/errors.js';
import { McpErrorCode } from '../protocol/errors.js';
import { paramHeaderValues } from '../protocol/param-headers.js';
import type { RequestOptions } from './caller.js';
import type { KnownTool } from './known-tools.js';
import type { ClientSession } from './session.js';
import type * as Spec from '../protocol/schema/2026-07-28.js';
import type { ProtocolEra, ProtocolRevision } from '../protocol/version.js';
import type { ClientExtensionIo, ClientToolCall } from './extension.js';
import type { CallOptions, CallToolResult, ListOptions } from './types.js';

/**
 * Calls a tool. A tool failure is returned (`isError: true`), never thrown; a protocol error
 * throws JsonRpcError (an unknown tool is -32602). A successful result of a tool with an
 * `outputSchema` is checked: a mismatch or a missing `structuredContent` throws
 * LocalError('PROTOCOL_VIOLATION'). In 2026-07-28 the call carries the `Mcp-Param-*` headers
 * the tool's `x-mcp-header` annotations ask for (a tool never listed fetches the tool list
 * first), and a HeaderMismatch (-32020) after the tool's definition changed is retried once with
 * the new definition.
 */
export async function runToolCall(
  session: ClientSession,
  params: { name: string; arguments: Record<string, unknown> },
  options: CallOptions,
): Promise<CallToolResult> {
  const { name } = params;
  if (session.caller.era === 'legacy') {
    const result = await sendToolCall(session, params, options);
    if (result.isError !== true) {
      const known = await session.tools.lookup(name, () => fetchTools(session, options));
      session.outputs.check(name, result, known?.outputSchema);
    }
    return result;
  }
  // 2026-07-28: with the `Mcp-Param-*` headers of the tool's definition (looked up first), in
  // this one async function (a second one awaited was a promise and two turns of every call).
  const fetch = (): Promise<void> => fetchTools(session, options);
  const found = session.tools.lookup(name, fetch);
  let known = isPromise(found) ? await found : found;
  let result: CallToolResult;
  const headers = paramHeadersOf(known, params.arguments);
  try {
    result = await sendToolCall(session, params, withParamHeaders(options, headers));
  } catch (error) {
    ({ result, known } = await retryFresh(session, { params, options, fetch, headers, error }));
  }
  session.outputs.check(name, result, known?.outputSchema);
  return result;
}

/**
 * A 2026-07-28 tools/call that failed with `error` (sent with `headers`): on HeaderMismatch, once
 * more with a fresh definition if its headers differ; else `error` rethrown.
 */
async function retryFresh(
  session: ClientSession,
  failed: {
    readonly params: { name: string; arguments: Record<string, unknown> };
    readonly options: CallOptions;
    readonly fetch: () => Promise<void>;
    readonly headers: Record<string, string> | undefined;
    readonly error: unknown;
  },
): Promise<{ result: CallToolResult; known: KnownTool | undefined }> {
  const { params, options, fetch, headers, error } = failed;
  if (!(error instanceof JsonRpcError) || error.code !== McpErrorCode.HeaderMismatch) {
    throw error;
  }
  // The definition the headers came from may be stale: list the tools again.
  session.lists.changed('tools');
  session.tools.forget();
  const fresh = await session.tools.lookup(params.name, fetch);
  const freshHeaders = paramHeadersOf(fresh, params.arguments);
  if (JSON.stringify(freshHeaders) === JSON.stringify(headers)) throw error;
  return {
    result: await sendToolCall(session, params, withParamHeaders(options, freshHeaders)),
    known: fresh,
  };
}

/** Fetches the tool list for output schemas; a server that cannot list leaves them unchecked. */
async function fetchTools(session: ClientSession, options: CallOptions): Promise<void> {
  const listOptions: ListOptions = {};
  if (options.signal !== undefined) listOptions.signal = options.signal;
  if (options.cancellation !== undefined) listOptions.cancellation = options.cancellation;
  if (options.timeoutMs !== undefined) listOptions.timeoutMs = options.timeoutMs;
  try {
    await session.lists.collect('tools', listOptions);
  } catch (error) {
    if (!(error instanceof JsonRpcError)) throw error;
    session.report(error);
  }
}

/** The `Mcp-Param-*` headers of a call of `known` with `args`; undefined for none. */
function paramHeadersOf(
  known: KnownTool | undefined,
  args: Record<string, unknown>,
): Record<string, string> | undefined {
  return known === undefined || known.headers.length === 0
    ? undefined
    : paramHeaderValues(known.headers, args);
}

/** Sends one tools/call, through the extensions' tool-call hooks when there are any. */
function sendToolCall(
  session: ClientSession,
  params: { name: string; arguments: Record<string, unknown> },
  options: RequestOptions,
): Promise<CallToolResult> {
  const hook = session.extensions.toolCall;
  if (hook === undefined) {
    return session.caller.request('tools/call', params, options) as Promise<CallToolResult>;
  }
  const send = (): Promise<Record<string, unknown>> =>
    session.caller.request('tools/call', params, options);
  return hook(new ToolCallFacts(session, params, options), send) as Promise<CallToolResult>;
}

/** A tools/call as an extension's hook sees it. */
class ToolCallFacts implements ClientToolCall {
  readonly #session: ClientSession;
  readonly name: string;
  readonly arguments: Readonly<Record<string, unknown>>;
  readonly options: CallOptions;

  constructor(
    session: ClientSession,
    params: { name: string; arguments: Record<string, unknown> },
    options: CallOptions,
  ) {
    this.#session = session;
    this.name = params.name;
    this.arguments = params.arguments;
    this.options = options;
  }

  get era(): ProtocolEra {
    return this.#session.caller.era;
  }
  get revision(): ProtocolRevision {
    return this.#session.caller.revision;
  }
  get serverCapabilities(): Spec.ServerCapabilities {
    return this.#session.negotiated?.serverCapabilities ?? {};
  }
  get io(): ClientExtensionIo {
    return this.#session.caller.io;
  }

  async tool(): Promise<Readonly<Record<string, unknown>> | undefined> {
    const session = this.#session;
    const known = await session.tools.lookup(this.name, () => fetchTools(session, this.options));
    return known?.listing;
  }
}

/** The options of a call, with its `Mcp-Param-*` headers when it has any. */
function withParamHeaders(
  options: CallOptions,
  headers: Record<string, string> | undefined,
): RequestOptions {
  if (headers === undefined) return options;
  return {
    ...options,
    headers: options.headers === undefined ? headers : { ...options.headers, ...headers },
  };
}
