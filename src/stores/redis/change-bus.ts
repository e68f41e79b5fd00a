// A ChangeBus on Redis pub/sub (mcpkit/stores/redis): the processes that serve as one server publish
// their list changes and resource updates on one channel and hear each other's, so that a change
// made on any process reaches the legacy sessions and `subscriptions/listen` streams of all. It
// takes a connected node-redis client (the optional peer `redis`), typed structurally; the
// subscription uses a connection of its own (`duplicate()`).
import type { ChangeBus, ServerChange } from '../../server/index.js';

/** The commands of a node-redis client the change bus uses. */
export interface RedisPublisherLike {
  publish(channel: string, message: string): Promise<unknown>;
  duplicate(): RedisChannelSubscriberLike;
}

/** The subscriber connection the bus makes with `duplicate()`. */
export interface RedisChannelSubscriberLike {
  connect(): Promise<unknown>;
  subscribe(channel: string, listener: (message: string) => void): Promise<unknown>;
  quit(): Promise<unknown>;
}

/** Options of {@link createRedisChangeBus}. */
export interface RedisChangeBusOptions {
  readonly client: RedisPublisherLike;
  /** The channel is `<prefix>:changes`. Default prefix `mcpkit`. */
  readonly prefix?: string;
  /** Receives a failure of the subscriber connection. */
  readonly onError?: (error: unknown) => void;
}

/**
 * Creates the bus on a connected client. Each `subscribe` opens a subscriber connection, closed
 * by the function it returns (McpServer calls it on close). A process never hears its own
 * changes (it told its own clients already).
 */
export function createRedisChangeBus(options: RedisChangeBusOptions): ChangeBus {
  const { client } = options;
  const channel = `${options.prefix ?? 'mcpkit'}:changes`;
  const origin = crypto.randomUUID();
  return {
    async publish(change) {
      await client.publish(channel, JSON.stringify({ o: origin, c: change }));
    },
    subscribe(listener) {
      const subscriber = client.duplicate();
      let closed = false;
      const heard = (text: string): void => {
        let parsed: { o?: unknown; c?: unknown };
        try {
          parsed = JSON.parse(text) as typeof parsed;
        } catch {
          return;
        }
        const change = parsed.c;
        if (parsed.o === origin || typeof change !== 'object' || change === null) return;
        try {
          listener(change as ServerChange);
        } catch (error) {
          options.onError?.(error);
        }
      };
      const ready = subscriber
        .connect()
        .then(() => subscriber.subscribe(channel, heard))
        .catch((error: unknown) => {
          options.onError?.(error);
        });
      return () => {
        if (closed) return;
        closed = true;
        void ready.then(() => subscriber.quit()).catch(() => undefined);
      };
    },
  };
}
