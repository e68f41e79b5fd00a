// An EventStore on Redis Streams (mcpkit/stores/redis): each resumable SSE stream is one Redis stream,
// trimmed to a bounded length and expiring when idle, so that any process sharing the Redis can
// replay what a client missed, also after the process that sent it has died. Event ids carry
// their stream (`<stream id>@<entry id>`), unique across processes. It takes a connected
// node-redis client (the optional peer `redis`), typed structurally.
import type { Message } from '../../jsonrpc/index.js';
import type { EventStore, Replay, StoredEvent } from '../../transports/http/index.js';

/** The commands of a node-redis client the event store uses. */
export interface RedisStreamClientLike {
  xAdd(
    key: string,
    id: string,
    message: Record<string, string>,
    options?: { TRIM: { strategy: 'MAXLEN'; strategyModifier: '~'; threshold: number } },
  ): Promise<string | null>;
  xRange(
    key: string,
    start: string,
    end: string,
    options?: { COUNT: number },
  ): Promise<{ id: string; message: Record<string, string> }[] | null>;
  pExpire(key: string, ms: number): Promise<unknown>;
  del(key: string): Promise<unknown>;
}

/** Options of {@link createRedisEventStore}. */
export interface RedisEventStoreOptions {
  readonly client: RedisStreamClientLike;
  /** Prefix of every key. Default `mcpkit:events`. */
  readonly prefix?: string;
  /** About how many events a stream keeps (older ones are trimmed). Default 1 000. */
  readonly maxEventsPerStream?: number;
  /** How long a stream is kept after its last event, in milliseconds. Default 5 minutes. */
  readonly maxAgeMs?: number;
}

/** The separator between the stream id and the Redis entry id in an event id. */
const AT = '@';

/** Creates the store on a connected client. Throws TypeError for a bound that is not positive. */
export function createRedisEventStore(options: RedisEventStoreOptions): EventStore {
  const maxEvents = options.maxEventsPerStream ?? 1000;
  const maxAgeMs = options.maxAgeMs ?? 300_000;
  for (const [name, value] of [
    ['maxEventsPerStream', maxEvents],
    ['maxAgeMs', maxAgeMs],
  ] as const) {
    if (!(Number.isInteger(value) && value > 0)) {
      throw new TypeError(`${name} must be a positive integer, got ${String(value)}`);
    }
  }
  const { client } = options;
  const prefix = options.prefix ?? 'mcpkit:events';
  const key = (streamId: string): string => `${prefix}:${streamId}`;
  const trim = {
    TRIM: { strategy: 'MAXLEN', strategyModifier: '~', threshold: maxEvents },
  } as const;
  return {
    async append(streamId, message) {
      const stream = key(streamId);
      const data = message === null ? '' : JSON.stringify(message);
      const id = await client.xAdd(stream, '*', { m: data }, trim);
      await client.pExpire(stream, maxAgeMs);
      if (id === null) throw new Error(`Redis refused an event on ${stream}`);
      return `${streamId}${AT}${id}`;
    },
    async replayAfter(eventId): Promise<Replay | undefined> {
      const at = eventId.lastIndexOf(AT);
      if (at <= 0) return undefined;
      const streamId = eventId.slice(0, at);
      const entry = eventId.slice(at + 1);
      if (!/^\d+-\d+$/.test(entry)) return undefined;
      const stream = key(streamId);
      // The event itself must still be there: trimmed or expired, what followed it is incomplete.
      const found = await client.xRange(stream, entry, entry, { COUNT: 1 });
      if (found === null || found.length === 0) return undefined;
      const after = (await client.xRange(stream, `(${entry}`, '+')) ?? [];
      const events: StoredEvent[] = [];
      for (const { id, message } of after) {
        const data = message['m'];
        if (data === undefined || data === '') continue; // a priming event: nothing to replay
        events.push({
          id: `${streamId}${AT}${id}`,
          message: JSON.parse(data) as Message | Message[],
        });
      }
      return { streamId, events };
    },
    async forget(streamId) {
      await client.del(key(streamId));
    },
  };
}
