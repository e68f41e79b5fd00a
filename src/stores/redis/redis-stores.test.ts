// Unit tests of the Redis stores' parts that need no Redis: the CLI's URL mask and failure
// message, the health check's answers, the DPoP replay store's SET NX, the change bus's origin
// filter. Each takes a structural stand-in for node-redis; the stores on a real Redis are tested
// in test/integration/redis-*.test.ts, tasks-redis and http-auth-dpop-redis.
import { describe, expect, it, vi } from 'vitest';
import type { ServerChange } from '../../server/index.js';
import { createRedisChangeBus } from './change-bus.js';
import type { RedisChannelSubscriberLike } from './change-bus.js';
import { maskRedisUrl, redisErrorMessage } from './connect.js';
import { createRedisDpopReplayStore } from './dpop-replay.js';
import { HealthCheckError, redisHealthCheck } from './health.js';

describe('maskRedisUrl and redisErrorMessage', () => {
  it('hides the password, keeps the rest, and never throws', () => {
    expect(maskRedisUrl('redis://user:secret@cache:6380/2')).toBe('redis://user:***@cache:6380/2');
    expect(maskRedisUrl('redis://127.0.0.1:6379')).toBe('redis://127.0.0.1:6379');
    expect(maskRedisUrl('not a url')).toBe('(unparsable URL)');
  });

  it("names an AggregateError's first error, else the message, else the name", () => {
    const refused = new Error('connect ECONNREFUSED 127.0.0.1:1');
    expect(redisErrorMessage(new AggregateError([refused, new Error('other')]))).toBe(
      refused.message,
    );
    expect(redisErrorMessage(new TypeError(''))).toBe('TypeError');
    expect(redisErrorMessage('down')).toBe('down');
  });
});

describe('redisHealthCheck', () => {
  it('answers ok on PONG, and unreachable when not connected, failing or late', async () => {
    await expect(redisHealthCheck({ ping: () => Promise.resolve('PONG') })()).resolves.toEqual({
      redis: 'ok',
    });
    const down = redisHealthCheck({ isReady: false, ping: () => Promise.resolve('PONG') });
    await expect(down()).rejects.toThrow('redis: not connected');
    const failing = redisHealthCheck(
      { ping: () => Promise.reject(new Error('LOADING')) },
      { name: 'cache' },
    );
    const error: unknown = await failing().catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(HealthCheckError);
    expect(error).toMatchObject({ message: 'cache: LOADING', details: { cache: 'unreachable' } });
    const silent = redisHealthCheck({ ping: () => new Promise(() => undefined) }, { timeoutMs: 5 });
    await expect(silent()).rejects.toThrow('no answer to PING within 5 ms');
  });

  it('refuses a time limit that is not a positive number', () => {
    const ping = () => Promise.resolve('PONG');
    expect(() => redisHealthCheck({ ping }, { timeoutMs: 0 })).toThrow(TypeError);
    expect(() => redisHealthCheck({ ping }, { timeoutMs: Number.NaN })).toThrow(TypeError);
  });
});

describe('createRedisDpopReplayStore', () => {
  it('takes a proof once (SET NX with its time to live), under the prefix', async () => {
    const keys = new Map<string, unknown>();
    const set = vi.fn((key: string, _value: string, options: unknown) => {
      if (keys.has(key)) return Promise.resolve(null);
      keys.set(key, options);
      return Promise.resolve('OK');
    });
    const store = createRedisDpopReplayStore({ client: { set }, prefix: 'p' });
    await expect(store.remember('proof', 1500.2)).resolves.toBe(true);
    await expect(store.remember('proof', 1500)).resolves.toBe(false);
    expect(keys.get('p:proof')).toEqual({
      condition: 'NX',
      expiration: { type: 'PX', value: 1501 },
    });
  });

  it('rejects when Redis does (the request is answered 503, the proof not taken)', async () => {
    const store = createRedisDpopReplayStore({
      client: { set: () => Promise.reject(new Error('down')) },
    });
    await expect(store.remember('proof', 1000)).rejects.toThrow('down');
  });
});

describe('createRedisChangeBus', () => {
  /** One channel shared by every bus made on the returned client, as Redis pub/sub would. */
  function fakeRedis() {
    const listeners = new Set<(message: string) => void>();
    const published: string[] = [];
    const client = {
      publish(_channel: string, message: string) {
        published.push(message);
        for (const listener of listeners) listener(message);
        return Promise.resolve(listeners.size);
      },
      duplicate(): RedisChannelSubscriberLike {
        let mine: ((message: string) => void) | undefined;
        return {
          connect: () => Promise.resolve(),
          subscribe(_channel: string, listener: (message: string) => void) {
            mine = listener;
            listeners.add(listener);
            return Promise.resolve();
          },
          quit() {
            if (mine !== undefined) listeners.delete(mine);
            return Promise.resolve();
          },
        };
      },
    };
    return { client, listeners, published };
  }

  it("hears the other processes' changes, never its own, and ignores what is not a change", async () => {
    const redis = fakeRedis();
    const one = createRedisChangeBus({ client: redis.client });
    const two = createRedisChangeBus({ client: redis.client });
    const heardByOne: ServerChange[] = [];
    const heardByTwo: ServerChange[] = [];
    const stopOne = one.subscribe((change) => heardByOne.push(change));
    const stopTwo = two.subscribe((change) => heardByTwo.push(change));
    await vi.waitFor(() => {
      expect(redis.listeners.size).toBe(2);
    });
    await one.publish({ list: 'tools' });
    await two.publish({ uri: 'file:///a' });
    await redis.client.publish('mcpkit:changes', 'not json');
    await redis.client.publish('mcpkit:changes', JSON.stringify({ o: 'x', c: 7 }));
    expect(heardByOne).toEqual([{ uri: 'file:///a' }]);
    expect(heardByTwo).toEqual([{ list: 'tools' }]);
    stopOne();
    stopTwo();
    stopTwo();
    await vi.waitFor(() => {
      expect(redis.listeners.size).toBe(0);
    });
  });

  it("reports a listener's throw and a subscriber's failure to onError", async () => {
    const redis = fakeRedis();
    const errors: unknown[] = [];
    const bus = createRedisChangeBus({
      client: redis.client,
      onError: (error) => errors.push(error),
    });
    const stop = bus.subscribe(() => {
      throw new Error('listener');
    });
    await vi.waitFor(() => {
      expect(redis.listeners.size).toBe(1);
    });
    await createRedisChangeBus({ client: redis.client }).publish({ list: 'prompts' });
    const broken = createRedisChangeBus({
      client: {
        publish: () => Promise.resolve(0),
        duplicate: () => ({
          connect: () => Promise.reject(new Error('refused')),
          subscribe: () => Promise.resolve(),
          quit: () => Promise.resolve(),
        }),
      },
      onError: (error) => errors.push(error),
    });
    const stopBroken = broken.subscribe(() => undefined);
    await vi.waitFor(() => {
      expect(errors).toHaveLength(2);
    });
    expect(errors.map((error) => (error as Error).message)).toEqual(['listener', 'refused']);
    stop();
    stopBroken();
  });
});
