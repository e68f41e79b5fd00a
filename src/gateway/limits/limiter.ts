// The Limiter: whether a forwarded tool call may go now. It takes a token from the call's buckets
// (its principal's, its tool's for that principal, its upstream's) in the store, then waits for
// a place under the upstream's concurrency cap. A refusal is a tool result (`isError`, MCP's
// way of telling the model what failed and what to do: wait), never a protocol error: the call
// was well formed, the gateway declined to run it now.
import type { SignalSource } from '../../internal/abort.js';
import { onAbort } from '../../internal/abort.js';
import { matchesGlob } from '../config.js';
import type { Bucket, RateLimitRules } from './rules.js';
import type { BucketTake, RateLimitStore } from './store.js';
import { createMemoryLimitStore } from './store.js';

/** The `_meta` key of a refusal's result carrying how long to wait, in milliseconds. */
export const RETRY_AFTER_META = 'mcpkit/retryAfterMs';

/** One call as the limiter sees it. */
export interface LimitedCall {
  /** Who makes the call (a principal id; the same string for every request of one principal). */
  readonly principal: string;
  readonly upstream: string;
  /** The tool's served name. */
  readonly tool: string;
  /** The call's cancellation (the handler's `ctx.cancellation`: no AbortSignal made for it). */
  readonly cancellation: SignalSource;
}

/** A refused call's result. */
export interface Refusal {
  readonly content: { type: 'text'; text: string }[];
  readonly isError: true;
  readonly _meta: Record<string, unknown>;
}

/** Most calls waiting for a place under one upstream's concurrency cap, per place. */
const QUEUE_PER_PLACE = 16;

/** A counting semaphore whose waiters leave when their cancellation aborts. */
class Places {
  #inUse = 0;
  readonly #waiting = new Set<() => void>();
  max: number;

  constructor(max: number) {
    this.max = max;
  }

  /** Resolves with true once a place is taken, false when the queue is full. */
  async take(cancellation: SignalSource): Promise<boolean> {
    if (this.#inUse < this.max) {
      this.#inUse++;
      return true;
    }
    if (this.#waiting.size >= this.max * QUEUE_PER_PLACE) return false;
    await new Promise<void>((resolve, reject: (reason: Error) => void) => {
      // Queued before following: a cancellation that has already aborted takes it out at once.
      const wake = () => {
        off();
        resolve();
      };
      this.#waiting.add(wake);
      const off = onAbort(cancellation, (reason) => {
        this.#waiting.delete(wake);
        reject(reason as Error);
      });
    });
    return true;
  }

  release(): void {
    const next = this.#waiting.values().next();
    if (!next.done) {
      this.#waiting.delete(next.value);
      next.value();
    } else {
      this.#inUse--;
    }
  }
}

/**
 * Limiter applies a config's rate limits and concurrency caps to tool calls. `configure` swaps
 * the rules (hot reload): buckets keep their levels, caps their calls in flight.
 */
export class Limiter {
  readonly #store: RateLimitStore;
  #rules: RateLimitRules = {};
  readonly #places = new Map<string, Places>();
  /** The `tools` rule of each served tool name (null: none), found once per configuration. */
  readonly #toolRules = new Map<string, { readonly bucket: Bucket } | null>();
  #active = false;

  constructor(rules: RateLimitRules, store: RateLimitStore = createMemoryLimitStore()) {
    this.#store = store;
    this.configure(rules);
  }

  /** Uses `rules` from now on. */
  configure(rules: RateLimitRules): void {
    this.#rules = rules;
    this.#toolRules.clear();
    this.#active =
      rules.principal !== undefined ||
      (rules.tools?.length ?? 0) > 0 ||
      Object.keys(rules.upstreams ?? {}).length > 0 ||
      Object.keys(rules.maxConcurrent ?? {}).length > 0;
    for (const [name, max] of Object.entries(rules.maxConcurrent ?? {})) {
      const places = this.#places.get(name);
      if (places === undefined) this.#places.set(name, new Places(max));
      else places.max = max;
    }
  }

  /** Whether any limit is configured (else calls pass without a step). */
  get active(): boolean {
    return this.#active;
  }

  /**
   * Runs `fn` when `call` is within its limits, and resolves with its result; else resolves with
   * a {@link Refusal} saying which limit and when to retry. Rejects as `fn` does, or with the
   * cancellation's reason when the call is cancelled while waiting for a place.
   */
  async run<T>(call: LimitedCall, fn: () => Promise<T>): Promise<T | Refusal> {
    const takes = this.#takes(call);
    if (takes.length > 0) {
      let answer;
      try {
        answer = await this.#store.take(takes);
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error);
        return refusal(
          `the gateway cannot check its rate limits now (${reason}); retry shortly`,
          1000,
        );
      }
      if (answer.refused !== undefined) {
        const take = takes[answer.refused] as BucketTake;
        return refusal(limitMessage(take, call, answer.retryAfterMs), answer.retryAfterMs);
      }
    }
    const places =
      this.#rules.maxConcurrent?.[call.upstream] === undefined
        ? undefined
        : this.#places.get(call.upstream);
    if (places === undefined) return fn();
    if (!(await places.take(call.cancellation))) {
      return refusal(
        `too many calls are waiting for the server "${call.upstream}" behind this gateway (at most ${String(places.max)} at a time); retry shortly`,
        1000,
      );
    }
    try {
      return await fn();
    } finally {
      places.release();
    }
  }

  /** Releases the store. */
  async close(): Promise<void> {
    await this.#store.close?.();
  }

  #takes(call: LimitedCall): BucketTake[] {
    const { principal, tools, upstreams } = this.#rules;
    const takes: BucketTake[] = [];
    if (principal !== undefined) takes.push({ key: `p:${call.principal}`, bucket: principal });
    let tool = this.#toolRules.get(call.tool);
    if (tool === undefined) {
      tool = tools?.find((rule) => matchesGlob(rule.pattern, call.tool)) ?? null;
      // Served names are bounded by the catalogue; the cap is a backstop.
      if (this.#toolRules.size < 10_000) this.#toolRules.set(call.tool, tool);
    }
    if (tool !== null) {
      takes.push({ key: `t:${call.tool}:${call.principal}`, bucket: tool.bucket });
    }
    const upstream = upstreams?.[call.upstream];
    if (upstream !== undefined) takes.push({ key: `u:${call.upstream}`, bucket: upstream });
    return takes;
  }
}

function limitMessage(take: BucketTake, call: LimitedCall, retryAfterMs: number): string {
  const wait = `retry in ${formatWait(retryAfterMs)}`;
  const kind = take.key[0];
  if (kind === 'p') {
    return `rate limit reached: your calls through this gateway are limited to ${take.bucket.label}; ${wait}`;
  }
  if (kind === 't') {
    return `rate limit reached: your calls of the tool "${call.tool}" are limited to ${take.bucket.label}; ${wait}`;
  }
  return `rate limit reached: calls to the server "${call.upstream}" behind this gateway are limited to ${take.bucket.label}; ${wait}`;
}

function formatWait(ms: number): string {
  if (ms < 1000) return `${String(Math.max(1, ms))} ms`;
  const seconds = Math.ceil(ms / 1000);
  if (seconds < 120) return `${String(seconds)} s`;
  const minutes = Math.ceil(seconds / 60);
  return minutes < 120 ? `${String(minutes)} min` : `${String(Math.ceil(minutes / 60))} h`;
}

function refusal(text: string, retryAfterMs: number): Refusal {
  return {
    content: [{ type: 'text', text }],
    isError: true,
    _meta: { [RETRY_AFTER_META]: retryAfterMs },
  };
}
