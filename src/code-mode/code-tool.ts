// The one tool code mode offers a model: `run_code`, whose description carries the TypeScript
// declarations of every tool (or, when they are many, an index and `searchTools`), and whose
// call runs the model's code in the sandbox. The host and the gateway both use it; each passes
// how a tool is called (its approval gate, its client, its routing).
import type { CallToolResult } from '../client/index.js';
import { searchTools } from '../catalogue/index.js';
import { declareFunction, declareNamespace, identifier, unique } from './declarations.js';
import type { DeclaredTool } from './declarations.js';
import type { CallOutcome, CodeRunResult, SandboxLimits } from './sandbox.js';
import { runCode } from './sandbox.js';
import { messageOf } from '../internal/message-of.js';

/** The code tool's name. */
export const CODE_TOOL = 'run_code';

/** A tool the code may call. */
export interface CodeModeTool {
  /** The server (upstream) that offers it: its namespace, made an identifier. */
  readonly server: string;
  /** The tool (name, description, input and output schemas). */
  readonly tool: DeclaredTool;
}

/** Options of {@link buildCodeApi}. */
export interface CodeApiOptions {
  /**
   * Above this many characters of declarations, the description lists the functions by name
   * and the code calls `searchTools("keywords")` for the declarations it needs. Default 24,000
   * (about 6,000 tokens).
   */
  readonly maxDeclarationChars?: number;
}

/** A tool's place in the API: its namespace and function names and what it is. */
export interface ApiEntry<T extends CodeModeTool = CodeModeTool> {
  readonly namespace: string;
  readonly fn: string;
  readonly entry: T;
  readonly declaration: string;
}

/** What code mode offers for a set of tools: the definition and the lookups a run needs. */
export interface CodeApi<T extends CodeModeTool = CodeModeTool> {
  /** The model-facing definition: name, description, input schema. */
  readonly definition: {
    readonly name: string;
    readonly description: string;
    readonly inputSchema: Record<string, unknown>;
  };
  /** Whether the description lists names only (searchTools gives the declarations). */
  readonly indexed: boolean;
  /** Entries by `namespace.fn`. */
  readonly entries: ReadonlyMap<string, ApiEntry<T>>;
  /** The function names of each namespace. */
  readonly namespaces: Readonly<Record<string, readonly string[]>>;
}

const PREAMBLE = `Runs JavaScript (ES2023, no modules) in a sandbox and returns what it prints (console.log) and returns. The code is the body of an async function: use await and return. Call tools as the async functions declared below; each returns the tool's result (its structured output, or its text), or throws a ToolError you can catch. Filter, join and sum data in the code and print or return only what the answer needs: intermediate results never reach you. No network, file system or timers; time, memory, tool calls and output are limited.`;

/** Builds the code tool for `tools`: namespaces per server, declarations, the description. */
export function buildCodeApi<T extends CodeModeTool>(
  tools: readonly T[],
  options: CodeApiOptions = {},
): CodeApi<T> {
  const namespaces = new Map<string, { server: string; taken: Set<string>; fns: string[] }>();
  const byServer = new Map<string, string>();
  const takenNamespaces = new Set<string>();
  const entries = new Map<string, ApiEntry<T>>();
  for (const entry of tools) {
    let namespace = byServer.get(entry.server);
    if (namespace === undefined) {
      namespace = unique(identifier(entry.server), takenNamespaces);
      byServer.set(entry.server, namespace);
      namespaces.set(namespace, { server: entry.server, taken: new Set(), fns: [] });
    }
    const space = namespaces.get(namespace) as { taken: Set<string>; fns: string[] };
    const fn = unique(identifier(entry.tool.name), space.taken);
    space.fns.push(fn);
    entries.set(`${namespace}.${fn}`, {
      namespace,
      fn,
      entry,
      declaration: declareFunction(fn, entry.tool),
    });
  }
  const grouped = [...namespaces].map(([namespace, space]) => ({
    namespace,
    server: space.server,
    items: space.fns.map((fn) => entries.get(`${namespace}.${fn}`) as ApiEntry<T>),
  }));
  const full = grouped
    .map((g) =>
      declareNamespace(
        g.namespace,
        g.items.map((item) => item.declaration),
      ),
    )
    .join('\n');
  const indexed = full.length > (options.maxDeclarationChars ?? 24_000);
  const body = indexed
    ? `There are ${String(entries.size)} functions, too many to declare here. Call searchTools("keywords", limit?) in your code and print its result: it returns the declarations of the matching functions. The functions, by namespace:\n${grouped
        .map((g) => `${g.namespace}: ${g.items.map((item) => item.fn).join(', ')}`)
        .join('\n')}`
    : `\`\`\`ts\n${full}\n\`\`\``;
  return {
    definition: {
      name: CODE_TOOL,
      description: `${PREAMBLE}\n\n${body}`,
      inputSchema: {
        type: 'object',
        properties: {
          code: { type: 'string', description: 'The body of an async JavaScript function.' },
        },
        required: ['code'],
        additionalProperties: false,
      },
    },
    indexed,
    entries,
    namespaces: Object.fromEntries(grouped.map((g) => [g.namespace, g.items.map((i) => i.fn)])),
  };
}

/** The declarations of the tools matching `query` (the catalogue's keyword search). */
export function searchApi(api: CodeApi, query: string, limit: number): string {
  const found = searchTools(
    [...api.entries].map(([name, item]) => ({
      name,
      server: item.namespace,
      description: item.entry.tool.description ?? '',
      item,
    })),
    query,
    limit,
  );
  if (found.length === 0) return `No function matches "${query}".`;
  return found.map((f) => declareNamespace(f.item.namespace, [f.item.declaration])).join('\n');
}

/**
 * Calls one tool for the code and says what the code gets: a failure (a throw, or an `isError`
 * result) is an error it can catch.
 */
export type CodeToolCaller<T extends CodeModeTool> = (
  entry: T,
  args: Record<string, unknown>,
  signal: AbortSignal,
) => Promise<CallToolResult>;

/** Options of {@link runCodeTool}. */
export interface RunCodeToolOptions<T extends CodeModeTool> {
  readonly call: CodeToolCaller<T>;
  readonly limits?: SandboxLimits;
  readonly signal?: AbortSignal;
}

/**
 * Runs a `run_code` call: the code in the sandbox, its tool calls through `options.call`. The
 * result is a tool result: what the code printed and returned, or `isError` with why it failed.
 */
export async function runCodeTool<T extends CodeModeTool>(
  api: CodeApi<T>,
  args: Record<string, unknown>,
  options: RunCodeToolOptions<T>,
): Promise<CallToolResult> {
  const code = args['code'];
  if (typeof code !== 'string' || code.trim() === '') {
    return errorResult('run_code needs "code": the body of an async JavaScript function.');
  }
  let run: CodeRunResult;
  try {
    run = await runCode({
      code,
      namespaces: api.namespaces,
      search: (query, limit) => searchApi(api, query, limit),
      call: async (call, signal) => {
        const item = api.entries.get(`${call.namespace}.${call.name}`);
        if (item === undefined)
          return { ok: false, error: `no function ${call.namespace}.${call.name}` };
        const input = call.arguments;
        if (input === null || typeof input !== 'object' || Array.isArray(input)) {
          return { ok: false, error: `${call.namespace}.${call.name} takes one object argument` };
        }
        return outcome(await options.call(item.entry, input as Record<string, unknown>, signal));
      },
      ...(options.limits === undefined ? {} : { limits: options.limits }),
      ...(options.signal === undefined ? {} : { signal: options.signal }),
    });
  } catch (error) {
    return errorResult(messageOf(error));
  }
  return formatRun(run);
}

/** What the code gets of a tool's result. */
export function outcome(result: CallToolResult): CallOutcome {
  const text = result.content
    .map((block) =>
      block.type === 'text'
        ? block.text
        : `[${block.type}${'mimeType' in block && typeof block.mimeType === 'string' ? ` ${block.mimeType}` : ''}]`,
    )
    .join('\n');
  if (result.isError === true) return { ok: false, error: text === '' ? 'the tool failed' : text };
  if (result.structuredContent !== undefined) return { ok: true, value: result.structuredContent };
  return { ok: true, value: text };
}

/** A run as a tool result: its console lines, then the returned value or the error. */
export function formatRun(run: CodeRunResult): CallToolResult {
  const parts = [...run.logs];
  if (run.value !== undefined) parts.push(`Returned: ${run.value}`);
  if (run.error !== undefined) parts.push(`Error: ${shortError(run.error)}`);
  if (parts.length === 0) parts.push('(the code printed and returned nothing)');
  return {
    content: [{ type: 'text', text: parts.join('\n') }],
    ...(run.ok ? {} : { isError: true }),
  };
}

/** An error's first lines (a stack overflow's trace is thousands of frames). */
function shortError(text: string): string {
  const lines = text.split('\n');
  const kept = lines.slice(0, 6).join('\n');
  return kept.length > 2_000 || lines.length > 6 ? `${kept.slice(0, 2_000)}\n    …` : kept;
}

function errorResult(text: string): CallToolResult {
  return { content: [{ type: 'text', text }], isError: true };
}
