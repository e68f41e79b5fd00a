// The Limiter: whether a forwarded tool call may go now. It takes a token from the call's buckets
// (its principal's, its tool's for that principal, its upstream's) in the store, then waits for
// a place under the upstream's concurrency cap. A refusal is a tool result (`isError`, MCP's
// way of telling the model what failed and what to do: wait), never a protocol error: the call
// was well formed, the gateway declined to run it now.
import { messageOf } from '../../internal/message-of.js';
import type { SignalSource } from '../../internal/abort.js';
import { onAbort } from '../../internal/abort.js';
import type { MaybePromise } from '../../internal/maybe.js';
import { isPromise } from '../../internal/maybe.js';
import { matchesGlob } from '../config.js';
import type { Bucket, RateLimitRules } from './rules.js';
import type { BucketTake, RateLimitStore, TakeResult } from './store.js';
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

  /**
   * True when a place is taken at once, false when the queue is full, else a promise of true
   * once a place is taken (rejected with the cancellation's reason if it aborts first).
   */
  take(cancellation: SignalSource): boolean | Promise<boolean> {
    if (this.#inUse < this.max) {
      this.#inUse++;
      return true;
    }
    if (this.#waiting.size >= this.max * QUEUE_PER_PLACE) return false;
    return new Promise<boolean>((resolve, reject: (reason: Error) => void) => {
      // Queued before following: a cancellation that has already aborted takes it out at once.
      const wake = () => {
        off();
        resolve(true);
      };
      this.#waiting.add(wake);
      const off = onAbort(cancellation, (reason) => {
        this.#waiting.delete(wake);
        reject(reason as Error);
      });
    });
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

/** What one principal's calls of one tool go through: their buckets and their upstream's cap. */
interface Plan {
  /** The upstream it was made for. */
  readonly upstream: string;
  readonly takes: readonly BucketTake[];
  /** The upstream's concurrency cap (undefined: none). */
  readonly places: Places | undefined;
}

/** What the limiter keeps of one served tool name for the configuration in force. */
interface ToolEntry {
  /** Its `tools` rule's bucket (undefined: none). */
  readonly bucket: Bucket | undefined;
  /** The plans of its calls, by principal key. */
  readonly byPrincipal: Map<string, Plan>;
}

/** Most served tool names, and most plans, the limiter keeps (backstops: they are remade). */
const MAX_TOOLS = 10_000;
const MAX_PLANS = 100_000;

/**
 * Limiter applies a config's rate limits and concurrency caps to tool calls. `configure` swaps
 * the rules (hot reload): buckets keep their levels, caps their calls in flight.
 */
export class Limiter {
  readonly #store: RateLimitStore;
  #rules: RateLimitRules = {};
  readonly #places = new Map<string, Places>();
  /** Per served tool name, its rule and its calls' plans, made once per configuration. */
  readonly #tools = new Map<string, ToolEntry>();
  #kept = 0;
  #active = false;

  constructor(rules: RateLimitRules, store: RateLimitStore = createMemoryLimitStore()) {
    this.#store = store;
    this.configure(rules);
  }

  /** Uses `rules` from now on. */
  configure(rules: RateLimitRules): void {
    this.#rules = rules;
    this.#tools.clear();
    this.#kept = 0;
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
   * Runs `fn` when `call` is within its limits and gives its result; else gives a
   * {@link Refusal} saying which limit and when to retry. Nothing is awaited that is known at
   * once (an in-memory store's answer, a free place): then `fn` runs before `run` returns, and
   * what it returns (a value or a promise) is given as is, and what it throws is thrown. A
   * store that answers later, or a call that waits for a place, gives a promise, rejected as
   * `fn` rejects or throws, or with the cancellation's reason when the call is cancelled while
   * waiting for a place.
   */
  run<T>(call: LimitedCall, fn: () => MaybePromise<T>): MaybePromise<T | Refusal> {
    const { takes, places } = this.#plan(call);
    if (takes.length === 0) return admit(places, call, fn);
    let answer: MaybePromise<TakeResult>;
    try {
      answer = this.#store.take(takes);
    } catch (error) {
      return unchecked(error);
    }
    if (isPromise(answer)) {
      return answer.then(
        (taken) =>
          taken.refused === undefined ? admit(places, call, fn) : limited(taken, takes, call),
        unchecked,
      );
    }
    return answer.refused === undefined ? admit(places, call, fn) : limited(answer, takes, call);
  }

  /** Releases the store. */
  async close(): Promise<void> {
    await this.#store.close?.();
  }

  /** The buckets and cap `call` goes through: made once per principal, tool and upstream. */
  #plan(call: LimitedCall): Plan {
    let tool = this.#tools.get(call.tool);
    const known = tool?.byPrincipal.get(call.principal);
    if (known !== undefined && known.upstream === call.upstream) return known;
    if (tool === undefined) {
      const rule = this.#rules.tools?.find((rule) => matchesGlob(rule.pattern, call.tool));
      tool = { bucket: rule?.bucket, byPrincipal: new Map() };
      // Served names are bounded by the catalogue; the cap is a backstop.
      if (this.#tools.size < MAX_TOOLS) this.#tools.set(call.tool, tool);
    }
    const { principal, upstreams, maxConcurrent } = this.#rules;
    const takes: BucketTake[] = [];
    if (principal !== undefined) takes.push({ key: `p:${call.principal}`, bucket: principal });
    if (tool.bucket !== undefined) {
      takes.push({ key: `t:${call.tool}:${call.principal}`, bucket: tool.bucket });
    }
    const upstream = upstreams?.[call.upstream];
    if (upstream !== undefined) takes.push({ key: `u:${call.upstream}`, bucket: upstream });
    const places =
      maxConcurrent?.[call.upstream] === undefined ? undefined : this.#places.get(call.upstream);
    const plan = { upstream: call.upstream, takes, places };
    // Principals are not bounded: past MAX_PLANS every tool's plans are made anew.
    if (this.#kept >= MAX_PLANS) {
      for (const entry of this.#tools.values()) entry.byPrincipal.clear();
      this.#kept = 0;
    }
    if (!tool.byPrincipal.has(call.principal)) this.#kept++;
    tool.byPrincipal.set(call.principal, plan);
    return plan;
  }
}

/** Runs `fn` once it has a place under its upstream's concurrency cap (if there is one). */
function admit<T>(
  places: Places | undefined,
  call: LimitedCall,
  fn: () => MaybePromise<T>,
): MaybePromise<T | Refusal> {
  if (places === undefined) return fn();
  const taken = places.take(call.cancellation);
  if (taken === true) return holding(places, fn);
  if (taken === false) return queueFull(call.upstream, places.max);
  return taken.then(() => holding(places, fn));
}

/** `fn` run holding a place of `places`, released when it settles. */
function holding<T>(places: Places, fn: () => MaybePromise<T>): MaybePromise<T> {
  let result: MaybePromise<T>;
  try {
    result = fn();
  } catch (error) {
    places.release();
    throw error;
  }
  if (!isPromise(result)) {
    places.release();
    return result;
  }
  return result.then(
    (value) => {
      places.release();
      return value;
    },
    (error: unknown) => {
      places.release();
      throw error;
    },
  );
}

/** The refusal of a call one of whose buckets the store found empty. */
function limited(answer: TakeResult, takes: readonly BucketTake[], call: LimitedCall): Refusal {
  const take = takes[answer.refused ?? 0] as BucketTake;
  return refusal(limitMessage(take, call, answer.retryAfterMs), answer.retryAfterMs);
}

/** The refusal of a call whose limits the store could not check. */
function unchecked(error: unknown): Refusal {
  const reason = messageOf(error);
  return refusal(`the gateway cannot check its rate limits now (${reason}); retry shortly`, 1000);
}

function queueFull(upstream: string, max: number): Refusal {
  return refusal(
    `too many calls are waiting for the server "${upstream}" behind this gateway (at most ${String(max)} at a time); retry shortly`,
    1000,
  );
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
