// The resumable streams of a legacy session: what a stream id says, what ends a POST stream, and
// the replay of a stream that already finished.
import { encode } from '../../../jsonrpc/codec.js';
import type { Message } from '../../../jsonrpc/message.js';
import type { StoredEvent } from './event-store.js';
import type { SseChunk } from './exchange.js';
import { encodeSseEvent } from '../sse.js';
import { SseWriter } from './sse-writer.js';

/**
 * The kinds of stream, first in the part of a stream id after the session id:
 * `<session id>/<kind><nonce>.<n>`.
 */
export const POST_STREAM = 'p';
export const STANDALONE_STREAM = 'g';

/** True when `streamId` names a GET stream of session `sessionId`. */
export function isStandaloneId(streamId: string, sessionId: string): boolean {
  return streamId.startsWith(`${sessionId}/${STANDALONE_STREAM}`);
}

/** 48 random bits as 12 hex digits: a copy's nonce keeps its stream ids unique across processes. */
export function randomNonce(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(6));
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/** True for what ends a POST stream: a response, or a batch's responses. */
export function isFinal(message: Message | readonly Message[]): boolean {
  return Array.isArray(message) || !('method' in (message as Message));
}

/** The body that replays the events of a finished stream, then ends. */
export function replayFinished(
  events: readonly StoredEvent[],
  signal: AbortSignal,
): AsyncIterable<SseChunk> {
  const writer = new SseWriter(signal, 0);
  for (const event of events) {
    writer.write(encodeSseEvent({ id: event.id, data: encode(event.message) }));
  }
  writer.end();
  return writer;
}
