// A name the server does not know (a tool, a prompt or a resource URI) answered with the
// closest one it lists.
import { JsonRpcError, McpErrorCode } from '../client/index.js';
import { closest } from './did-you-mean.js';
import { CliError } from './errors.js';

/**
 * The JSON-RPC codes servers answer an unknown name with: invalid params, resource not found
 * (legacy revisions), and method not found, which some third-party servers use (fastmcp answers
 * an unknown tool with -32601).
 */
const UNKNOWN_CODES: ReadonlySet<number> = new Set([
  McpErrorCode.InvalidParams,
  McpErrorCode.ResourceNotFound,
  McpErrorCode.MethodNotFound,
]);

/** What the CLI asks for by name, and the listing that shows the names. */
const LISTING = {
  tool: 'mcpkit list',
  prompt: 'mcpkit list prompts',
  resource: 'mcpkit list resources',
} as const;

/**
 * `error` explained when it is the server refusing `name` and `name` is not among those it
 * lists: "no tool X", with the closest listed name as a hint. Any other error is returned as is
 * (also when listing fails).
 */
export async function explainUnknownName(
  error: unknown,
  asked: {
    readonly kind: keyof typeof LISTING;
    readonly name: string;
    /** The names the server lists (resource URIs for resources). */
    readonly list: () => Promise<readonly string[]>;
  },
): Promise<unknown> {
  const { kind, name, list } = asked;
  if (!(error instanceof JsonRpcError) || !UNKNOWN_CODES.has(error.code)) return error;
  const names = await list().catch(() => undefined);
  if (names === undefined || names.includes(name)) return error;
  const near = closest(name, names);
  const listing = LISTING[kind];
  // -32601 says the method is unknown, and the method is known: name the shape, not a mystery.
  const shape =
    error.code === McpErrorCode.MethodNotFound
      ? ` (it answered -32601 "${error.message}", its way of saying so; the spec's code is -32602)`
      : '';
  return new CliError(`the server has no ${kind} "${name}"${shape}`, {
    hint:
      near === undefined
        ? `${listing} shows the ${kind}s it has`
        : `did you mean "${near}"? (${listing} shows them all)`,
    cause: error,
  });
}

/**
 * A tool error (`isError`) for a tool the server does not list, as older servers built on the
 * official SDK v1 answer an unknown tool: "the server has no tool X" with the closest listed
 * name. Undefined when the tool is listed (a real tool error) or the listing fails.
 */
export async function unknownToolInResult(asked: {
  readonly name: string;
  readonly list: () => Promise<readonly string[]>;
}): Promise<CliError | undefined> {
  const names = await asked.list().catch(() => undefined);
  if (names === undefined || names.includes(asked.name)) return undefined;
  const near = closest(asked.name, names);
  return new CliError(
    `the server has no tool "${asked.name}" (it said so in a tool error, isError; the spec's answer is a -32602 error)`,
    {
      hint:
        near === undefined
          ? 'mcpkit list shows the tools it has'
          : `did you mean "${near}"? (mcpkit list shows them all)`,
    },
  );
}
