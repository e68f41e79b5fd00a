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
 */
export function reportOnStderr(error: unknown, where: string): void {
  // eslint-disable-next-line no-console -- the documented default; onError replaces it
  console.error(`mcpkit server: ${where}: ${oneLine(error)}`);
}

function oneLine(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  if (!isCodeSlip(error)) return error.message;
  // The first frame of V8's stack: `    at name (file:line:column)` or `    at file:line:column`.
  const at = /^\s+at (?:[^\n(]*\()?([^\n()]+:\d+:\d+)\)?$/m.exec(error.stack ?? '')?.[1];
  return `${error.name}: ${error.message}${at === undefined ? '' : ` (at ${at})`}`;
}
