// What McpServer says of an error that does not reach the wire whole, when no onError is given.

/**
 * True for what a slip in code throws (reading a field of undefined, calling what is not a
 * function, a name used before it is set): a TypeError or ReferenceError. A handler's failures
 * on purpose are other Errors.
 */
export function isCodeSlip(error: unknown): boolean {
  return error instanceof TypeError || error instanceof ReferenceError;
}

/**
 * The default onError: one line on stderr, through console.error (every runtime has it),
 * `mcpkit server: <where>: <message>`; a slip in code also names its kind and where it was thrown.
 * With MCPKIT_DEBUG set (`mcpkit serve --debug` sets it), an Error's whole stack instead.
 */
export function reportOnStderr(error: unknown, where: string): void {
  const text =
    debugging() && error instanceof Error ? (error.stack ?? oneLine(error)) : oneLine(error);
  // eslint-disable-next-line no-console -- the documented default; onError replaces it
  console.error(`mcpkit server: ${where}: ${text}`);
}

/** Whether MCPKIT_DEBUG is set and not empty or `0`; read only when an error is reported. */
function debugging(): boolean {
  const runtime = globalThis as { process?: { env?: Record<string, string | undefined> } };
  const value = runtime.process?.env?.['MCPKIT_DEBUG'];
  return value !== undefined && value !== '' && value !== '0';
}

function oneLine(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  if (!isCodeSlip(error)) return error.message;
  // The first frame of V8's stack: `    at name (file:line:column)` or `    at file:line:column`.
  const at = /^\s+at (?:[^\n(]*\()?([^\n()]+:\d+:\d+)\)?$/m.exec(error.stack ?? '')?.[1];
  return `${error.name}: ${error.message}${at === undefined ? '' : ` (at ${at})`}`;
}
