// pingme's domain logic: the reply to a ping. Kept apart from the MCP wiring (server.ts) so the
// smallest server still shows the logic / wiring / process split.

/** The text PingME answers with. */
export const PING_REPLY = 'BISMILLAH';

/** Answers a ping. */
export function ping(): string {
  return PING_REPLY;
}
