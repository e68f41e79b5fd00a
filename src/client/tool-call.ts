// tools/call as the client sends it, the hot path of a client. 2025-11-25: as a task when the
// server takes tool calls as tasks and the call or the tool's listing asks for one; else a plain
// request. 2026-07-28: with the `Mcp-Param-*` headers the tool's definition asks for (the tools
// listed first when the tool was never seen), retried once on HeaderMismatch when a fresh
// definition's headers differ. A successful result is checked against the tool's outputSchema.
import { isObject } from '../internal/json.js';
import { isPromise } from '../internal/maybe.js';
import { JsonRpcError } from '../jsonrpc/errors.js';
import { McpErrorCode } from '../protocol/errors.js';
import { paramHeaderValues } from '../protocol/param-headers.js';
import type { RequestOptions } from './caller.js';
import type { KnownTool } from './known-tools.js';
import type { ClientSession } from './session.js';
import { driveLegacyTask } from './tasks.js';
import type { Task } from '../protocol/tasks.js';
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
    const result = (await callLegacy(session, params, options)) as CallToolResult;
    if (result.isError !== true) {
      const known = await session.tools.lookup(name, () => fetchTools(session, options));
      session.outputs.check(name, result, known?.outputSchema);
    }
    return result;
  }
  const { result, known } = await callModern(session, params, options);
  session.outputs.check(name, result, known?.outputSchema);
  return result;
}

/** tools/call as a task, not waited for: `{ task }`, or `{ result }` when the server answered at once. */
export async function startToolTask(
  session: ClientSession,
  params: { name: string; arguments: Record<string, unknown> },
  options: CallOptions,
): Promise<{ task: Task } | { result: CallToolResult }> {
  if (session.caller.era === 'legacy') {
    const ttl = options.taskTtlMs === undefined ? {} : { ttl: options.taskTtlMs };
    const created = await session.caller.request('tools/call', { ...params, task: ttl }, options);
    if (isObject(created['task'])) return { task: created['task'] as unknown as Task };
    return { result: created as CallToolResult };
  }
  const answer = await session.caller.request('tools/call', params, {
    ...options,
    rawTask: true,
  });
  if (answer['resultType'] === 'task') {
    const task = Object.fromEntries(Object.entries(answer).filter(([key]) => key !== 'resultType'));
    return { task: task as unknown as Task };
  }
  return { result: answer as CallToolResult };
}

/**
 * A legacy tools/call, as a 2025-11-25 task when the server takes tool calls as tasks
 * (`capabilities.tasks.requests.tools.call`) and `options.task` asks for one or the tool's
 * listing says it requires one (`execution.taskSupport`; the tools are listed first then).
 */
async function callLegacy(
  session: ClientSession,
  params: { name: string; arguments: Record<string, unknown> },
  options: CallOptions,
): Promise<Record<string, unknown>> {
  if (
    session.caller.revision === '2025-11-25' &&
    takesToolTasks(session.negotiated?.serverCapabilities)
  ) {
    const known =
      options.task === true
        ? undefined
        : await session.tools.lookup(params.name, () => fetchTools(session, options));
    if (options.task === true || known?.taskSupport === 'required') {
      const ttl = options.taskTtlMs === undefined ? {} : { ttl: options.taskTtlMs };
      const task = { ...params, task: ttl };
      const created = await session.caller.request('tools/call', task, options);
      return driveLegacyTask(created, session.caller.taskIo, options);
    }
  }
  return session.caller.request('tools/call', params, options);
}

/**
 * A 2026-07-28 tools/call with the `Mcp-Param-*` headers of the tool's definition (looked up
 * first); on HeaderMismatch, once more with a fresh definition if its headers differ.
 */
async function callModern(
  session: ClientSession,
  params: { name: string; arguments: Record<string, unknown> },
  options: CallOptions,
): Promise<{ result: CallToolResult; known: KnownTool | undefined }> {
  const fetch = (): Promise<void> => fetchTools(session, options);
  const found = session.tools.lookup(params.name, fetch);
  const known = isPromise(found) ? await found : found;
  const headers = paramHeadersOf(known, params.arguments);
  try {
    return {
      result: await sendToolCall(session, params, withParamHeaders(options, headers)),
      known,
    };
  } catch (error) {
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
}

/** Fetches the tool list for output schemas; a server that cannot list leaves them unchecked. */
async function fetchTools(session: ClientSession, options: CallOptions): Promise<void> {
  const listOptions: ListOptions = {};
  if (options.signal !== undefined) listOptions.signal = options.signal;
  if (options.timeoutMs !== undefined) listOptions.timeoutMs = options.timeoutMs;
  try {
    await session.lists.collect('tools', listOptions);
  } catch (error) {
    if (!(error instanceof JsonRpcError)) throw error;
    session.report(error);
  }
}

/** Whether a 2025-11-25 server takes tools/call as a task (`tasks.requests.tools.call`). */
function takesToolTasks(capabilities: unknown): boolean {
  const tasks = isObject(capabilities) ? capabilities['tasks'] : undefined;
  const requests = isObject(tasks) ? tasks['requests'] : undefined;
  const tools = isObject(requests) ? requests['tools'] : undefined;
  return isObject(tools) && isObject(tools['call']);
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

/** Sends one 2026-07-28 tools/call. */
function sendToolCall(
  session: ClientSession,
  params: { name: string; arguments: Record<string, unknown> },
  options: RequestOptions,
): Promise<CallToolResult> {
  return session.caller.request('tools/call', params, options) as Promise<CallToolResult>;
}

/** The options of a call, with its `Mcp-Param-*` headers when it has any. */
function withParamHeaders(
  options: CallOptions,
  headers: Record<string, string> | undefined,
): RequestOptions {
  return headers === undefined ? options : { ...options, headers };
}
