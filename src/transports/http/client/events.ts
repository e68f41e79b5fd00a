// Reading a Server-Sent Events body as it arrives: bytes through a streaming TextDecoder (a
// character split across chunks stays whole) into the SseParser, and each event's data into
// JSON-RPC messages. Nothing is buffered beyond the current line.
import { decode } from '../../../jsonrpc/codec.js';
import { LocalError, LocalErrorCode } from '../../../jsonrpc/errors.js';
import type { Message } from '../../../jsonrpc/message.js';
import type { SseEvent } from '../sse.js';
import { SseParser } from '../sse.js';
import { noop } from '../../../internal/noop.js';

/** Where a stream stands, for resuming it: what `Last-Event-ID` and `retry` last said. */
export interface StreamCursor {
  /** The id of the last event that carried one; sent as `Last-Event-ID` on reconnection. */
  lastEventId: string | undefined;
  /** The server's last `retry` hint in milliseconds. */
  retryMs: number | undefined;
  /** Message events read so far, on every connection of the stream (reconnect backoff). */
  received: number;
}

/** How {@link readEventStream} reports what it reads. */
export interface EventSink {
  /** Receives every dispatched event, in order. Must not throw. */
  event(event: SseEvent): void;
  /** Asked after each chunk: true stops reading (the body is cancelled). */
  done?(): boolean;
  /** Receives parser problems (an overlong line). */
  error(error: Error): void;
}

/** How a read ended: the server ended the body, `done()` said stop, or the body failed. */
export type ReadOutcome = 'ended' | 'stopped' | 'failed';

/**
 * Reads an SSE body to its end, updating `cursor` as ids and retry hints arrive. Never throws:
 * a network failure or an abort ends the read with 'failed'. An event left unterminated when
 * the body ends is dropped, as the SSE specification says.
 */
export async function readEventStream(
  body: ReadableStream<Uint8Array>,
  cursor: StreamCursor,
  sink: EventSink,
): Promise<ReadOutcome> {
  const parser = new SseParser(
    (event) => {
      sink.event(event);
    },
    {
      onError: (error) => {
        sink.error(error);
      },
    },
  );
  const sync = (): void => {
    if (parser.lastEventId !== undefined) cursor.lastEventId = parser.lastEventId;
    if (parser.retry !== undefined) cursor.retryMs = parser.retry;
  };
  const reader = body.getReader();
  const decoder = new TextDecoder();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) {
        parser.push(decoder.decode());
        sync();
        return 'ended';
      }
      parser.push(decoder.decode(value, { stream: true }));
      sync();
      if (sink.done?.() === true) {
        await reader.cancel().catch(noop);
        return 'stopped';
      }
    }
  } catch {
    sync();
    return 'failed';
  } finally {
    reader.releaseLock();
  }
}

/**
 * The JSON-RPC messages in one `message` event's data: one message, or each element of a
 * batch. Anything else is reported to `onError` and skipped. Empty data (a priming event,
 * Spec 2025-11-25 basic/transports) carries nothing and is not an error.
 */
export function messagesIn(data: string, onError: (error: Error) => void): Message[] {
  if (data.trim() === '') return [];
  const decoded = decode(data, { allowBatch: true });
  switch (decoded.kind) {
    case 'message':
      return [decoded.message];
    case 'batch': {
      const messages: Message[] = [];
      for (const item of decoded.items) {
        if ('message' in item) messages.push(item.message);
        else onError(invalid(item.invalid.error.message, data));
      }
      return messages;
    }
    case 'invalid':
      onError(invalid(decoded.response.error.message, data));
      return [];
  }
}

/** True for an event that carries a JSON-RPC message: type `message`, or no type at all. */
export function isMessageEvent(event: SseEvent): boolean {
  return event.event === undefined || event.event === 'message';
}

function invalid(reason: string, data: string): LocalError {
  const excerpt = data.length > 200 ? `${data.slice(0, 200)}…` : data;
  return new LocalError(
    LocalErrorCode.InvalidMessage,
    `invalid message in SSE event skipped (${reason}): ${excerpt}`,
  );
}
