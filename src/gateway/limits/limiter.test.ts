import process from 'node:process';
import { createClient } from 'redis';
import { describe, expect, it, onTestFinished } from 'vitest';
import { LazySignal } from '../../internal/abort.js';
import { Limiter, RETRY_AFTER_META } from './limiter.js';
import type { Refusal } from './limiter.js';
import { createRedisLimitStore } from './redis-store.js';
import { parseRateLimits } from './rules.js';
import { createMemoryLimitStore } from './store.js';

const REDIS_URL = process.env['MCPKIT_TEST_REDIS_URL'];
if (REDIS_URL === undefined)
  console.log('skipping the Redis limit store test: no MCPKIT_TEST_REDIS_URL');

function call(principal: string, tool = 'search', upstream = 'docs') {
  return { principal, tool, upstream, cancellation: new AbortController().signal };
}

const ok = () => Promise.resolve('ran');

/** A limiter with one place for `docs`, taken by a first call until `release`. */
function heldPlace() {
  const limiter = new Limiter(
    parseRateLimits({ upstreams: { docs: { maxConcurrent: 1 } } }, ['docs']),
  );
  let release!: () => void;
  const first = limiter.run(
    call('a'),
    () =>
      new Promise<string>((resolve) => {
        release = () => {
          resolve('first');
        };
      }),
  );
  return {
    limiter,
    first,
    release: () => {
      release();
    },
  };
}

function isRefusal(value: unknown): value is Refusal {
  return typeof value === 'object' && value !== null && (value as Refusal).isError;
}

describe('parseRateLimits', () => {
  it('reads buckets, tool globs and concurrency caps', () => {
    const rules = parseRateLimits(
      {
        principal: { rate: 60, per: 'minute', burst: 10 },
        tools: { 'search_*': { rate: 2, per: 'second' } },
        upstreams: {
          docs: { rate: 100, per: 'hour', maxConcurrent: 4 },
          git: { maxConcurrent: 1 },
        },
      },
      ['docs', 'git'],
    );
    expect(rules.principal).toEqual({
      capacity: 10,
      rate: 60,
      periodMs: 60_000,
      label: '60 per minute, bursts of 10',
    });
    expect(rules.tools?.[0]?.pattern).toBe('search_*');
    expect(rules.upstreams?.['docs']?.capacity).toBe(100);
    expect(rules.upstreams?.['git']).toBeUndefined();
    expect(rules.maxConcurrent).toEqual({ docs: 4, git: 1 });
  });

  it('refuses bad limits naming the field', () => {
    expect(() => parseRateLimits({ principal: { rate: -1 } }, [])).toThrow(
      'the config "rateLimits.principal".rate is not a positive number',
    );
    expect(() => parseRateLimits({ principal: { rate: 1, per: 'week' } }, [])).toThrow(
      'per is not one of second, minute, hour, day',
    );
    expect(() => parseRateLimits({ upstreams: { nope: { rate: 1 } } }, ['docs'])).toThrow(
      'names no server of the config: "nope"',
    );
    expect(() => parseRateLimits({ everyone: {} }, [])).toThrow('unknown field "everyone"');
    expect(() => parseRateLimits({ principal: { maxConcurrent: 2 } }, [])).toThrow(
      'unknown field "maxConcurrent"',
    );
  });
});

describe('Limiter', () => {
  it('refuses past a principal bucket with when to retry, and refills with time', async () => {
    let now = 0;
    const rules = parseRateLimits({ principal: { rate: 2, per: 'second' } }, []);
    const limiter = new Limiter(rules, createMemoryLimitStore({ now: () => now }));
    expect(await limiter.run(call('alice'), ok)).toBe('ran');
    expect(await limiter.run(call('alice'), ok)).toBe('ran');
    const refused = await limiter.run(call('alice'), ok);
    expect(isRefusal(refused)).toBe(true);
    const refusal = refused as Refusal;
    expect(refusal.content[0]?.text).toBe(
      'rate limit reached: your calls through this gateway are limited to 2 per second; retry in 500 ms',
    );
    expect(refusal._meta[RETRY_AFTER_META]).toBe(500);
    // Another principal has a bucket of its own.
    expect(await limiter.run(call('bob'), ok)).toBe('ran');
    now += 500;
    expect(await limiter.run(call('alice'), ok)).toBe('ran');
  });

  it('takes from every bucket or from none', async () => {
    const now = 0;
    const rules = parseRateLimits(
      { principal: { rate: 10 }, tools: { search: { rate: 1, per: 'hour' } } },
      [],
    );
    const store = createMemoryLimitStore({ now: () => now });
    const limiter = new Limiter(rules, store);
    expect(await limiter.run(call('alice'), ok)).toBe('ran');
    const refused = (await limiter.run(call('alice'), ok)) as Refusal;
    expect(refused.content[0]?.text).toContain(
      'your calls of the tool "search" are limited to 1 per hour',
    );
    expect(refused._meta[RETRY_AFTER_META]).toBe(3_600_000);
    // The refused call took nothing from the principal's bucket: 9 other calls still go.
    for (let i = 0; i < 9; i++) expect(await limiter.run(call('alice', 'other'), ok)).toBe('ran');
    expect(isRefusal(await limiter.run(call('alice', 'other'), ok))).toBe(true);
  });

  it('holds calls past an upstream concurrency cap until a place frees, and cancels waiters', async () => {
    const { limiter, first, release } = heldPlace();
    const order: string[] = [];
    const second = limiter.run(call('b'), () => {
      order.push('second started');
      return Promise.resolve('second');
    });
    const controller = new AbortController();
    const third = limiter.run({ ...call('c'), cancellation: controller.signal }, ok);
    await Promise.resolve();
    expect(order).toEqual([]);
    controller.abort(new Error('cancelled'));
    await expect(third).rejects.toThrow('cancelled');
    release();
    expect(await first).toBe('first');
    expect(await second).toBe('second');
    expect(order).toEqual(['second started']);
  });

  it("cancels a waiter through a handler's cancellation (a Followable), and one already cancelled at once", async () => {
    const { limiter, first, release } = heldPlace();
    const cancellation = new LazySignal(() => []);
    const waiting = limiter.run({ ...call('b'), cancellation }, ok);
    cancellation.abort(new Error('cancelled while waiting'));
    await expect(waiting).rejects.toThrow('cancelled while waiting');
    const done = new LazySignal(() => []);
    done.abort(new Error('cancelled before'));
    await expect(limiter.run({ ...call('c'), cancellation: done }, ok)).rejects.toThrow(
      'cancelled before',
    );
    let started = false;
    const next = limiter.run(call('d'), () => {
      started = true;
      return Promise.resolve('next');
    });
    release();
    expect(await first).toBe('first');
    expect(await next).toBe('next');
    expect(started).toBe(true);
  });

  it('refuses a call when the store cannot answer (limits are not waived)', async () => {
    const rules = parseRateLimits({ principal: { rate: 1 } }, []);
    const limiter = new Limiter(rules, { take: () => Promise.reject(new Error('Redis is down')) });
    const refused = (await limiter.run(call('a'), ok)) as Refusal;
    expect(refused.content[0]?.text).toBe(
      'the gateway cannot check its rate limits now (Redis is down); retry shortly',
    );
  });

  it('answers at once when nothing is pending (in memory, a free place)', async () => {
    const rules = parseRateLimits(
      { principal: { rate: 1, per: 'hour' }, upstreams: { docs: { rate: 9, maxConcurrent: 1 } } },
      ['docs'],
    );
    const limiter = new Limiter(rules);
    expect(limiter.run(call('a'), () => 'at once')).toBe('at once');
    expect(isRefusal(limiter.run(call('a'), () => 'not run'))).toBe(true);
    // A throw releases the place: the next call is not queued behind it.
    expect(() =>
      limiter.run(call('b'), () => {
        throw new Error('thrown');
      }),
    ).toThrow('thrown');
    await expect(limiter.run(call('c'), () => Promise.reject(new Error('no')))).rejects.toThrow(
      'no',
    );
    expect(limiter.run(call('d'), () => 'free')).toBe('free');
  });

  it('forgets the least recently used buckets past maxBuckets', async () => {
    const rules = parseRateLimits({ principal: { rate: 2, per: 'hour' } }, []);
    const limiter = new Limiter(rules, createMemoryLimitStore({ maxBuckets: 3, now: () => 0 }));
    for (const principal of ['a', 'b', 'c', 'a']) {
      expect(await limiter.run(call(principal), ok)).toBe('ran');
    }
    // Full: d's bucket makes room by forgetting b's and c's (a's was used since).
    expect(await limiter.run(call('d'), ok)).toBe('ran');
    expect(isRefusal(await limiter.run(call('a'), ok))).toBe(true);
    for (let i = 0; i < 2; i++) expect(await limiter.run(call('b'), ok)).toBe('ran');
  });

  it('keeps bucket levels across configure (hot reload)', async () => {
    const limiter = new Limiter(parseRateLimits({ principal: { rate: 1, per: 'hour' } }, []));
    expect(await limiter.run(call('a'), ok)).toBe('ran');
    limiter.configure(parseRateLimits({ principal: { rate: 1, per: 'hour' } }, []));
    expect(isRefusal(await limiter.run(call('a'), ok))).toBe(true);
    limiter.configure({});
    expect(await limiter.run(call('a'), ok)).toBe('ran');
  });
});

describe.skipIf(REDIS_URL === undefined)('createRedisLimitStore', () => {
  it('shares buckets between limiters, all or nothing', async () => {
    const redis = createClient({ url: REDIS_URL as string });
    await redis.connect();
    onTestFinished(async () => {
      await redis.quit();
    });
    const prefix = `mcpkit-test-limits:${String(process.pid)}:${String(Date.now())}`;
    const rules = parseRateLimits(
      { principal: { rate: 3, per: 'hour' }, tools: { search: { rate: 1, per: 'hour' } } },
      [],
    );
    const one = new Limiter(rules, createRedisLimitStore(redis, { prefix }));
    const two = new Limiter(rules, createRedisLimitStore(redis, { prefix }));
    expect(await one.run(call('alice'), ok)).toBe('ran');
    const refused = (await two.run(call('alice'), ok)) as Refusal;
    expect(refused.content[0]?.text).toContain('your calls of the tool "search"');
    expect(refused._meta[RETRY_AFTER_META]).toBeGreaterThan(3_500_000);
    expect(await two.run(call('alice', 'other'), ok)).toBe('ran');
    expect(await one.run(call('alice', 'other'), ok)).toBe('ran');
    const principal = (await two.run(call('alice', 'third'), ok)) as Refusal;
    expect(principal.content[0]?.text).toContain(
      'your calls through this gateway are limited to 3 per hour',
    );
    const keys = await redis.keys(`${prefix}:*`);
    expect(keys.length).toBe(2);
    expect(await redis.pTTL(keys[0] as string)).toBeGreaterThan(0);
    await redis.del(keys);
  });
});
