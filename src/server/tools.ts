// Tools: compiled once at registration (schemas, validators, the listed definition), then called
// through one pipeline whose two error channels follow the spec: a tool failure is an `isError`
// result the model can read; a protocol fault is a JSON-RPC error (spec 2025-11-25 server/tools).
import { checkScopes } from '../protocol/auth.js';
import type { MaybePromise } from '../internal/maybe.js';
import { isPromise } from '../internal/maybe.js';
import { JsonRpcError } from '../jsonrpc/errors.js';
import type { JsonSchemaValidator } from '../protocol/json-schema/index.js';
import { McpErrorCode, invalidParams } from '../protocol/errors.js';
import { checkToolName } from '../protocol/names.js';
import type { ParamHeader } from '../protocol/param-headers.js';
import { scanParamHeaders } from '../protocol/param-headers.js';
import type * as Spec from '../protocol/schema/2026-07-28.js';
import { contentBlockProblem, toolResultFor } from './content.js';
import { isCodeSlip } from './report.js';
import type { Checked, CompiledSchema } from './schemas.js';
import { compileSchema, requireObjectSchema } from './schemas.js';
import type { Chain, ToolCallContext, ToolCallResult } from './middleware.js';
import { RequestAnswer } from './middleware.js';
import type { HandlerContext, ToolDefinition } from './types.js';

/** A handler as the framework holds it: what it returns is checked, not trusted. */
type AnyToolHandler = (args: unknown, ctx: HandlerContext) => unknown;

/** A tool ready to serve. */
export interface CompiledTool {
  readonly name: string;
  /** The definition as listed (newest revision's shape; listings trim it per revision). */
  readonly wire: Spec.Tool;
  readonly input: CompiledSchema;
  /** The inputSchema's `x-mcp-header` annotations (2026-07-28 HTTP; empty for most tools). */
  readonly params: readonly ParamHeader[];
  readonly output: CompiledSchema | undefined;
  readonly handler: AnyToolHandler;
  /** The scopes a caller needs (auth gate on). */
  readonly scopes: readonly string[];
  /** The definition as registered (what tool-call middleware sees of it). */
  readonly definition: ToolDefinition;
}

const EMPTY_OBJECT_SCHEMA = { type: 'object', properties: {}, additionalProperties: false };

/** Compiles a tool definition; throws TypeError on a registration mistake. */
export function compileTool(
  definition: ToolDefinition,
  handler: (args: never, ctx: HandlerContext) => unknown,
  validator: JsonSchemaValidator,
): CompiledTool {
  const { name } = definition;
  const problems =
    typeof name === 'string' ? checkToolName(name) : [{ message: 'name must be a string' }];
  if (problems.length > 0) {
    throw new TypeError(
      `invalid tool name ${JSON.stringify(name)}: ${problems.map((p) => p.message).join('; ')}`,
    );
  }
  if (typeof handler !== 'function')
    throw new TypeError(`tool "${name}": the handler must be a function`);
  const where = `tool "${name}"`;
  const input = compileSchema(definition.inputSchema ?? EMPTY_OBJECT_SCHEMA, 'input', {
    validator,
    where: `${where} inputSchema`,
  });
  requireObjectSchema(input.json, `${where} inputSchema`);
  // Clients drop a tool whose annotations are invalid (spec 2026-07-28 server/tools#x-mcp-header):
  // a registration mistake, said at once.
  const scan = scanParamHeaders(input.json);
  if (!scan.ok) throw new TypeError(`${where} inputSchema: ${scan.problem}`);
  const output =
    definition.outputSchema === undefined
      ? undefined
      : compileSchema(definition.outputSchema, 'output', {
          validator,
          where: `${where} outputSchema`,
        });
  if (output !== undefined) requireObjectSchema(output.json, `${where} outputSchema`);
  // Field order is the order hosts show and tokenize: identity, prose, then schemas.
  const fields = {
    name,
    title: definition.title,
    description: definition.description,
    inputSchema: input.json,
    outputSchema: output?.json,
    annotations: definition.annotations,
    // 2025-11-25 lists task support (`execution.taskSupport`); later revisions drop the field.
    execution: definition.execution,
    icons: definition.icons,
    _meta: definition._meta,
  };
  const wire = Object.fromEntries(
    Object.entries(fields).filter(([, value]) => value !== undefined),
  );
  return {
    name,
    wire: wire as unknown as Spec.Tool,
    input,
    params: scan.headers,
    output,
    handler: handler as AnyToolHandler,
    scopes: checkScopes(definition.scopes, where),
    definition,
  };
}

/**
 * Rejects the official SDK's call forms (`tool(name, shape, handler)`, `tool(name, description,
 * …)`) with the mcpkit form, before anything else reads the definition.
 */
export function checkToolCall(definition: unknown, handler: unknown, extra: number): void {
  if (typeof definition === 'object' && definition !== null && extra === 0) return;
  const name = typeof definition === 'string' ? definition : 'my-tool';
  const form = `server.tool({ name: ${JSON.stringify(name)}, description: '…', inputSchema: z.strictObject({ … }) }, handler)`;
  if (typeof definition === 'string' || extra > 0 || typeof handler !== 'function') {
    throw new TypeError(`server.tool takes a definition object and a handler: write ${form}`);
  }
  throw new TypeError(`server.tool: the definition must be an object: write ${form}`);
}

/** Reports a failure that must not reach the wire (handler crashes, output schema mismatches). */
export type ErrorReporter = (error: unknown, where: string) => void;

/** How a tools/call runs: the handler's context, where failures are reported, the middleware. */
export interface ToolRun {
  readonly ctx: HandlerContext;
  /** The request's params (what tool-call middleware sees). */
  readonly params: Readonly<Record<string, unknown>>;
  readonly report: ErrorReporter;
  /** The server's composed tool-call middleware; undefined when none is registered. */
  readonly through?: Chain<ToolCallContext, ToolCallResult> | undefined;
  /**
   * What the handler's run answered last (set by the run): a tool-call middleware that returns
   * it as is needs no second check.
   */
  answered?: unknown;
}

/**
 * Runs a tools/call against `tool` (already looked up: unknown tools are rejected before this,
 * outside any catch), through the tool-call middleware when there is any. Answers the result,
 * synchronously when the input check and the handler are and no middleware runs; rejects (or
 * throws) only with a JsonRpcError.
 */
export function callTool(
  tool: CompiledTool,
  args: unknown,
  call: ToolRun,
): MaybePromise<Spec.CallToolResult> {
  const checked = tool.input.check(args ?? {});
  // Without middleware the handler runs at once, as it did before middleware existed.
  const run = call.through === undefined ? runTool : runThrough;
  // A synchronous check (the built-in validator's) is used as is: no microtask hop.
  if (isPromise(checked)) return checked.then((done) => run(tool, done, call));
  return run(tool, checked, call);
}

/** Runs a call through the tool-call middleware (valid arguments only) to the handler. */
function runThrough(
  tool: CompiledTool,
  checked: Checked,
  call: ToolRun,
): MaybePromise<Spec.CallToolResult> {
  const through = call.through;
  if (through === undefined || !checked.ok) return runTool(tool, checked, call);
  const context: ToolCallContext = {
    name: tool.name,
    tool: tool.wire,
    definition: tool.definition,
    params: call.params,
    arguments: checked.value as Record<string, unknown>,
    ctx: call.ctx,
  };
  // The handler's run records what it answered (call.answered): no reaction of its own here.
  const end = (c: ToolCallContext): MaybePromise<ToolCallResult> =>
    runHandler(tool, c.arguments, call) as MaybePromise<ToolCallResult>;
  let returned: MaybePromise<ToolCallResult>;
  try {
    returned = through(context, end);
  } catch (thrown) {
    return handlerFailed(tool, thrown, call.report);
  }
  if (!isPromise(returned)) {
    return returned === call.answered
      ? (returned as Spec.CallToolResult)
      : middlewareResult(tool, returned, call);
  }
  return returned.then(
    (value) =>
      value === call.answered
        ? (value as Spec.CallToolResult)
        : middlewareResult(tool, value, call),
    (thrown: unknown) => handlerFailed(tool, thrown, call.report),
  );
}

/**
 * What a tool-call middleware answered of its own: checked as a handler's return is, unless it
 * answers the request itself ({@link RequestAnswer}).
 */
function middlewareResult(tool: CompiledTool, value: unknown, call: ToolRun): Spec.CallToolResult {
  if (value instanceof RequestAnswer) return value.result as unknown as Spec.CallToolResult;
  const result = normalizeToolResult(value, false);
  if (typeof result === 'string')
    invalidResult(tool, `a tool-call middleware: ${result}`, call.report);
  return toolResultFor(result, call.ctx.revision);
}

function runTool(
  tool: CompiledTool,
  checked: Checked,
  call: ToolRun,
): MaybePromise<Spec.CallToolResult> {
  if (!checked.ok) {
    return toolError(`invalid arguments for tool "${tool.name}":\n${checked.message}`);
  }
  return runHandler(tool, checked.value, call);
}

/**
 * Runs the handler with valid `args`: its result, checked, or its failure as a result, also
 * recorded as `call.answered` once at hand.
 */
function runHandler(
  tool: CompiledTool,
  args: unknown,
  call: ToolRun,
): MaybePromise<Spec.CallToolResult> {
  let returned: unknown;
  try {
    returned = tool.handler(args, call.ctx);
  } catch (thrown) {
    return (call.answered = handlerFailed(tool, thrown, call.report));
  }
  if (!isPromise<unknown>(returned)) return answered(call, finishTool(tool, returned, call));
  return returned.then(
    (value) => answered(call, finishTool(tool, value, call)),
    (thrown: unknown) => (call.answered = handlerFailed(tool, thrown, call.report)),
  );
}

/** `result`, recorded as `call.answered` once it is at hand. */
function answered(
  call: ToolRun,
  result: MaybePromise<Spec.CallToolResult>,
): MaybePromise<Spec.CallToolResult> {
  if (isPromise(result)) return result.then((value) => (call.answered = value));
  return (call.answered = result);
}

/**
 * A handler's throw: an `isError` result for an Error, a protocol error otherwise. A slip in the
 * handler's code (TypeError, ReferenceError) is also reported, for its developer to see; other
 * Errors are failures on purpose, for the model only.
 */
function handlerFailed(
  tool: CompiledTool,
  thrown: unknown,
  report: ErrorReporter,
): Spec.CallToolResult {
  if (thrown instanceof JsonRpcError) throw thrown;
  if (thrown instanceof Error) {
    if (isCodeSlip(thrown)) report(thrown, `tool "${tool.name}"`);
    return toolError(thrown.message);
  }
  report(thrown, `tool "${tool.name}"`);
  throw new JsonRpcError(McpErrorCode.InternalError, 'internal error');
}

function finishTool(
  tool: CompiledTool,
  returned: unknown,
  call: ToolRun,
): MaybePromise<Spec.CallToolResult> {
  const result = normalizeToolResult(returned, tool.output !== undefined);
  if (typeof result === 'string') invalidResult(tool, result, call.report);
  const revision = call.ctx.revision;
  if (tool.output === undefined || result.isError === true) return toolResultFor(result, revision);
  const checked = checkOutput(tool, result, call.report);
  if (checked === undefined) return toolResultFor(result, revision);
  return checked.then(() => toolResultFor(result, revision));
}

/** An `isError` result carrying `message` as text. */
export function toolError(message: string): Spec.CallToolResult {
  return { content: [{ type: 'text', text: message }], isError: true } as Spec.CallToolResult;
}

/** The fields of a tool result a handler may set (`resultType` is the framework's). */
const RESULT_FIELDS = new Set(['content', 'structuredContent', 'isError', '_meta']);

/**
 * What the handler returned as a result to send, or what is wrong with it: text, a result object
 * with valid content blocks, or (with an output schema) the structured data alone.
 */
function normalizeToolResult(returned: unknown, structured: boolean): Spec.CallToolResult | string {
  if (typeof returned === 'string') {
    return { content: [{ type: 'text', text: returned }] } as Spec.CallToolResult;
  }
  if (typeof returned !== 'object' || returned === null || Array.isArray(returned)) {
    return `it returned ${returned === null ? 'null' : Array.isArray(returned) ? 'an array' : typeof returned}, not a string or a result object`;
  }
  const record = returned as Record<string, unknown>;
  if (
    structured &&
    !('content' in record || 'structuredContent' in record || 'isError' in record)
  ) {
    // The structured data alone; its text mirror is for clients that read only `content`.
    const content = [{ type: 'text', text: JSON.stringify(record) }];
    return { content, structuredContent: record } as Spec.CallToolResult;
  }
  for (const key in record) {
    if (!RESULT_FIELDS.has(key)) {
      return `its result has an unknown field "${key}" (a result has ${[...RESULT_FIELDS].join(', ')})`;
    }
  }
  const data = record['structuredContent'];
  if (data !== undefined && (typeof data !== 'object' || data === null || Array.isArray(data))) {
    return 'its structuredContent is not an object';
  }
  const content = record['content'];
  if (content === undefined) {
    if (data === undefined) return 'its result has no content';
    return {
      ...record,
      content: [{ type: 'text', text: JSON.stringify(data) }],
    } as Spec.CallToolResult;
  }
  if (!Array.isArray(content)) return 'its content is not an array of content blocks';
  for (let i = 0; i < content.length; i++) {
    const problem = contentBlockProblem(content[i]);
    if (problem !== undefined) return `content[${String(i)}]: ${problem}`;
  }
  return { ...record } as unknown as Spec.CallToolResult;
}

/**
 * Checks structured content against the output schema: undefined when it passed synchronously, a
 * promise when the check is asynchronous. A mismatch is a server bug, not something the model can
 * fix: a protocol error (thrown or rejected), with the details kept local.
 */
function checkOutput(
  tool: CompiledTool,
  result: Spec.CallToolResult,
  report: ErrorReporter,
): Promise<void> | undefined {
  const output = tool.output;
  if (output === undefined) return undefined;
  const data = result.structuredContent;
  if (data === undefined) outputFailed(tool, 'it returned no structuredContent', report);
  const checked = output.check(data);
  const judge = (done: Checked): undefined => {
    if (!done.ok) outputFailed(tool, `structuredContent does not match: ${done.message}`, report);
  };
  if (isPromise(checked)) return checked.then(judge);
  judge(checked);
  return undefined;
}

/** A result that is not one: reported, and answered -32603 (the model cannot fix a server bug). */
function invalidResult(tool: CompiledTool, problem: string, report: ErrorReporter): never {
  report(
    new Error(`tool "${tool.name}" returned an invalid result: ${problem}`),
    `tool "${tool.name}"`,
  );
  throw new JsonRpcError(
    McpErrorCode.InternalError,
    `tool "${tool.name}" returned an invalid result`,
  );
}

function outputFailed(tool: CompiledTool, problem: string, report: ErrorReporter): never {
  report(
    new Error(`tool "${tool.name}" declares an outputSchema but ${problem}`),
    `tool "${tool.name}"`,
  );
  throw new JsonRpcError(
    McpErrorCode.InternalError,
    `tool "${tool.name}" returned invalid structured content`,
  );
}

/** The error for a tools/call naming no known tool. */
export function unknownTool(name: unknown): JsonRpcError {
  return invalidParams(`unknown tool ${JSON.stringify(name)}`);
}
