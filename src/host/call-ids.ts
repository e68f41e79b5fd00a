// The ids of a conversation's tool calls (a call whose id was used before is not run).
import type { HostMessage } from './types.js';

/** The ids of the tool calls in `messages`. */
export function callIds(messages: readonly HostMessage[]): Set<string> {
  const ids = new Set<string>();
  for (const message of messages) {
    if (typeof message.content === 'string') continue;
    for (const part of message.content) if (part.type === 'tool_call') ids.add(part.id);
  }
  return ids;
}
