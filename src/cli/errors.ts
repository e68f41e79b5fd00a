// Exit codes and the one place where a failure becomes what a person reads: one line saying what
// went wrong, one line hinting at the fix, and a stack trace only with --debug.
import { JsonRpcError, LocalError, McpErrorCode } from '../client/index.js';
import { ErrorCode } from '../jsonrpc/index.js';
import { ProcessExitError } from '../transports/stdio/index.js';
import type { Io } from './io.js';
import type { Style } from './output.js';
import { messageOf } from '../internal/message-of.js';

/** The exit codes of every command. */
export const ExitCode = {
  /** Success. */
  Ok: 0,
  /** The tool reported an error (`isError`), or lint found an error. */
  ToolError: 1,
  /** A protocol or connection error: the server could not be reached or refused a request. */
  Failure: 2,
  /** Bad usage: unknown flag, missing argument, invalid JSON. */
  Usage: 3,
} as const;

/** UsageError is a mistake on the command line; it exits 3 with a hint. */
export class UsageError extends Error {
  /** What to do about it; default: run the command's --help. */
  readonly hint: string | undefined;

  constructor(message: string, hint?: string) {
    super(message);
    this.name = 'UsageError';
    this.hint = hint;
  }
}

/** CliError is an expected failure with a hint (exit 2 unless `exitCode` says otherwise). */
export class CliError extends Error {
  /** What to do about it. */
  readonly hint: string | undefined;
  /** The exit code. Default 2. */
  readonly exitCode: number;

  constructor(
    message: string,
    options: { hint?: string; exitCode?: number; cause?: unknown } = {},
  ) {
    super(message, { cause: options.cause });
    this.name = 'CliError';
    this.hint = options.hint;
    this.exitCode = options.exitCode ?? ExitCode.Failure;
  }
}

/** How a failure is shown: the command's name, colours, whether to show stacks. */
export interface ReportOptions {
  /** `mcpkit call`, say; prefixes the message. */
  readonly command: string;
  readonly style: Style;
  /** Print the stack and the chain of causes. */
  readonly debug: boolean;
  /** Whether the server's stderr was already shown live (so its tail is not repeated). */
  readonly stderrShown?: boolean;
}

/** What a failure means to a person: a message, a hint and an exit code. */
export interface Explained {
  readonly message: string;
  readonly hint: string | undefined;
  readonly exitCode: number;
}

/** Explains any thrown value. Never throws. */
export function explain(error: unknown, stderrShown = false): Explained {
  if (error instanceof UsageError) {
    return { message: error.message, hint: error.hint, exitCode: ExitCode.Usage };
  }
  if (error instanceof CliError) {
    return { message: error.message, hint: error.hint, exitCode: error.exitCode };
  }
  if (error instanceof JsonRpcError) return explainJsonRpc(error);
  // A call that fails because the server process died carries the exit as its cause.
  const exit = findCause(error, ProcessExitError);
  if (exit !== undefined) return explainExit(exit, stderrShown);
  if (error instanceof LocalError) return explainLocal(error);
  // Matched by name: importing mcpkit/client here would load it on every start.
  if (error instanceof Error && error.name === 'AuthorizationError') return explainAuth(error);
  const message = messageOf(error);
  return {
    message: `unexpected error: ${message}`,
    hint: 'run again with --debug to see where it happened',
    exitCode: ExitCode.Failure,
  };
}

/** Writes the explanation of `error` to stderr and returns the exit code. */
export function report(error: unknown, io: Io, options: ReportOptions): number {
  const { message, hint, exitCode } = explain(error, options.stderrShown);
  const { style } = options;
  io.stderr.write(`${style.red(`${options.command}:`)} ${message}\n`);
  if (hint !== undefined) io.stderr.write(`${style.dim(`hint: ${hint}`)}\n`);
  if (options.debug) io.stderr.write(debugText(error));
  return exitCode;
}

/** Hints for the AuthorizationError codes a person can act on. */
const AUTH_HINTS: Readonly<Record<string, string>> = {
  no_client:
    'register a client with the authorization server and pass --client-id (and --client-secret)',
  interaction_required: 'sign in first: mcpkit login <url>',
  retry_limit: 'the server keeps refusing the token it asked for: check your account and --scope',
  access_denied: 'the sign-in was declined in the browser',
  server_unreachable:
    'is the server running, and is the URL right? (mcpkit info <url> tries it without signing in)',
  scope_not_granted:
    'the authorization server grants your account or client fewer scopes than the server needs: have them allowed there (mcpkit auth dev-server: --scopes); --scope changes what is asked for',
  sign_in_incomplete:
    'open the printed URL in a browser and finish signing in (--no-browser only prints it), or sign in ahead with mcpkit login <url>',
};

function explainAuth(error: Error): Explained {
  const code = (error as { code?: unknown }).code;
  return {
    message: `authorization failed: ${error.message}`,
    hint:
      (typeof code === 'string' ? AUTH_HINTS[code] : undefined) ??
      'run again with --trace to see the OAuth exchanges (secrets masked); mcpkit logout <url> forgets stored tokens',
    exitCode: ExitCode.Failure,
  };
}

function explainJsonRpc(error: JsonRpcError): Explained {
  const base = { message: `the server answered with error ${error.code}: ${error.message}` };
  const status = statusOf(error.data);
  let hint: string | undefined;
  switch (error.code) {
    case ErrorCode.MethodNotFound:
      hint = 'the server does not implement this method (check its capabilities with mcpkit info)';
      break;
    case ErrorCode.InvalidParams:
      hint =
        'check the name and the arguments: mcpkit list shows what the server offers and their schemas';
      break;
    case McpErrorCode.ResourceNotFound:
      hint = 'no such resource: mcpkit list resources shows what the server has';
      break;
    case McpErrorCode.MissingRequiredClientCapability: {
      // 2026-07-28: name what the request needs.
      const needed = (error.data as { requiredCapabilities?: unknown } | undefined)
        ?.requiredCapabilities;
      const names = capabilityNames(needed);
      hint =
        names.length === 0
          ? 'the request needs a client capability this client did not declare'
          : `the request needs the client capability ${names.join(', ')}, which this client did not declare`;
      break;
    }
    // HttpErrorCode.HttpStatus (mcpkit/transports/http), left literal: main.ts loads this file
    // on every start, and importing that entry here would add both HTTP transports (about
    // 150 KB of bundle to every start).
    case -32000:
      hint =
        status === 401 || status === 403
          ? "the server wants credentials: sign in with mcpkit login <url>, or pass a token with --header 'Authorization: Bearer <token>'"
          : status === 404
            ? 'no MCP endpoint at this URL: check the path (often /mcp)'
            : 'the server answered with an HTTP error status';
      break;
    default:
      hint = undefined;
  }
  return { ...base, hint, exitCode: ExitCode.Failure };
}

/** `{ elicitation: { url: {} }, sampling: {} }` as ["elicitation.url", "sampling"]. */
function capabilityNames(value: unknown, prefix = ''): string[] {
  if (typeof value !== 'object' || value === null) return [];
  return Object.entries(value).flatMap(([key, inner]) => {
    const name = prefix === '' ? key : `${prefix}.${key}`;
    const nested = capabilityNames(inner, name);
    return nested.length === 0 ? [name] : nested;
  });
}

function explainLocal(error: LocalError): Explained {
  const hints: Record<string, string> = {
    REQUEST_TIMEOUT:
      'the server did not answer in time: raise the limit with --timeout <ms> (each request) or --max-time <s> (a whole call)',
    NOT_CONNECTED: 'is the server running? check the URL, or the command after --',
    CONNECTION_CLOSED: 'the connection closed: run again with --trace to see the last messages',
    UNSUPPORTED: 'the server needs something this client cannot provide',
    PROTOCOL_VIOLATION: 'the server broke the protocol: run again with --trace to see the messages',
    INVALID_MESSAGE: 'the server wrote something that is not JSON-RPC (logging to stdout?)',
  };
  return { message: error.message, hint: hints[error.code], exitCode: ExitCode.Failure };
}

function explainExit(error: ProcessExitError, stderrShown: boolean): Explained {
  const how =
    error.signal === null ? `exit code ${String(error.exitCode)}` : `signal ${error.signal}`;
  const tail = error.stderr.trim().split('\n').slice(-5).join('\n  ');
  const message =
    stderrShown || tail === ''
      ? `the server process exited (${how})`
      : `the server process exited (${how}); its last output:\n  ${tail}`;
  return {
    message,
    hint: 'run the command by hand to see why it stops, or add --trace to see the messages',
    exitCode: ExitCode.Failure,
  };
}

/** The first error of class `type` in the chain of causes of `error`, itself included. */
function findCause<TError extends Error>(
  error: unknown,
  type: abstract new (...args: never[]) => TError,
): TError | undefined {
  let current = error;
  for (let depth = 0; depth < 8 && current instanceof Error; depth += 1) {
    if (current instanceof type) return current;
    current = current.cause;
  }
  return undefined;
}

function statusOf(data: unknown): number | undefined {
  if (typeof data !== 'object' || data === null) return undefined;
  const status = (data as { status?: unknown }).status;
  return typeof status === 'number' ? status : undefined;
}

/** The stack and causes of an error, for --debug. */
function debugText(error: unknown): string {
  const lines: string[] = [];
  let current: unknown = error;
  for (let depth = 0; current !== undefined && depth < 8; depth += 1) {
    if (current instanceof Error) {
      lines.push(
        depth === 0
          ? (current.stack ?? current.message)
          : `caused by: ${current.stack ?? current.message}`,
      );
      if (current instanceof JsonRpcError && current.data !== undefined) {
        lines.push(`data: ${JSON.stringify(current.data)}`);
      }
      current = current.cause;
    } else {
      const shown = typeof current === 'string' ? current : JSON.stringify(current);
      lines.push(depth === 0 ? shown : `caused by: ${shown}`);
      current = undefined;
    }
  }
  return `${lines.join('\n')}\n`;
}
