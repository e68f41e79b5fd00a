// Which downstream request an upstream's own requests (elicitation, sampling, roots) and logs
// belong to: each forwarded call is tagged with the downstream request it serves, and is in
// flight while it runs.
import type { CallOptions, ElicitHandler, RootsHandler, SampleHandler } from '../client/index.js';
import { APPS_EXTENSION } from '../catalogue/index.js';
import { LiveEntry, LiveSet } from '../internal/live-set.js';
import { ErrorCode, JsonRpcError } from '../jsonrpc/errors.js';
import type * as Spec from '../protocol/schema/2026-07-28.js';
import type { HandlerContext } from '../server/index.js';
import type { UpstreamHooks } from './upstream.js';

/** A downstream request being served by an upstream (one run of its handler), while in flight. */
export class Call {
  readonly upstream: string;
  readonly ctx: HandlerContext;
  /**
   * What its upstream request is tagged with: its entry among the calls in flight, which stands
   * for it only while it is in flight. A client may keep what it was given past the call (in a
   * table the collector has promoted), and a tag that held the call would keep the whole
   * downstream request alive with it (bench/RESULTS.md, issue 40 point 8).
   */
  readonly tag: LiveEntry<Call>;
  /** The input keys this run has asked under (2026-07-28 downstream). */
  keys: Set<string> | undefined = undefined;
  /**
   * What also cancels the upstream request, besides `ctx`'s cancellation: set for a call that
   * can end before its downstream request does (a tool call of code mode's code, whose run can
   * end first).
   */
  signal: AbortSignal | undefined = undefined;
  readonly #inflight: LiveSet<Call>;

  /** A call of `ctx`'s request to `upstream`, in flight in `inflight` until {@link end}. */
  constructor(upstream: string, ctx: HandlerContext, inflight: LiveSet<Call>) {
    this.upstream = upstream;
    this.ctx = ctx;
    this.#inflight = inflight;
    this.tag = inflight.add(this);
  }

  /** The call is over: no longer in flight, its tag no longer stands for it. Idempotent. */
  end(): void {
    this.#inflight.delete(this.tag);
  }
}

/**
 * The options of a question asked downstream: the upstream's own `inputRequests` key (so a
 * 2026-07-28 client sees the keys the upstream chose), unless this run used it already (an
 * upstream may reuse a key in a later round); then the position-based default.
 */
function keyOf(call: Call, key: string | undefined): { key: string } | undefined {
  if (key === undefined || call.ctx.era !== 'modern') return undefined;
  const keys = (call.keys ??= new Set());
  if (keys.has(key) || /^input-\d+$/.test(key)) return undefined;
  keys.add(key);
  return { key };
}

/**
 * The downstream requests in flight to each upstream, and where an upstream's requests go. The
 * calls in flight are a LiveSet, not a Set: one is added and removed per forwarded call.
 */
export class Routing {
  readonly #inflight = new Map<string, LiveSet<Call>>();

  /** The hooks that answer upstream `name`'s requests and logs; `event` gets logs nobody waits for. */
  answers(
    name: string,
    event: (event: Record<string, unknown>) => void,
  ): Pick<UpstreamHooks, 'elicit' | 'sample' | 'roots' | 'log'> {
    const elicit: ElicitHandler = (params, input) => {
      const call = this.#route(name, input.tag, 'elicitation');
      return call.ctx.elicit(params, keyOf(call, input.key));
    };
    const sample: SampleHandler = (params, input) => {
      const call = this.#route(name, input.tag, 'sampling');
      return call.ctx.sample(params, keyOf(call, input.key));
    };
    const roots: RootsHandler = (input) => {
      const call = this.callOf(name, input.tag);
      return call === undefined ? [] : call.ctx.roots(keyOf(call, input.key));
    };
    const log = (params: Spec.LoggingMessageNotificationParams, tag: unknown) => {
      const call = this.callOf(name, tag);
      if (call !== undefined) {
        void call.ctx.log(params.level, params.data, params.logger).catch(() => undefined);
      } else {
        event({ upstream: name, log: params.level, data: params.data });
      }
    };
    return { elicit, sample, roots, log };
  }

  /**
   * The downstream request an upstream's request or log belongs to: the one whose forwarded call
   * it came in the course of (`tag`: known for 2026-07-28 upstreams and HTTP response streams),
   * else the latest request in flight to that upstream (stdio carries no link between a server's
   * request and the call that caused it).
   */
  callOf(upstream: string, tag: unknown): Call | undefined {
    const inflight = this.#inflight.get(upstream);
    if (inflight === undefined || inflight.size === 0) return undefined;
    const tagged = tag instanceof LiveEntry ? (tag.value as Call | undefined) : undefined;
    if (tagged !== undefined && tagged.upstream === upstream) return tagged;
    return inflight.last();
  }

  #route(upstream: string, tag: unknown, what: string): Call {
    const call = this.callOf(upstream, tag);
    if (call === undefined) {
      throw new JsonRpcError(
        ErrorCode.InternalError,
        `the gateway has no downstream request in flight to answer this ${what} request`,
      );
    }
    return call;
  }

  /**
   * Starts a call of `ctx`'s request to `upstream` (the forwarding tags its upstream request with
   * the call's tag, see {@link forwarded}), in flight until its `end()`: the upstream's requests
   * and logs meanwhile go to its client. Whoever starts a call ends it, however it settles. The
   * upstream request is cancelled with `ctx`'s, and with `signal` when given.
   */
  start(upstream: string, ctx: HandlerContext, signal?: AbortSignal): Call {
    let inflight = this.#inflight.get(upstream);
    if (inflight === undefined) {
      inflight = new LiveSet();
      this.#inflight.set(upstream, inflight);
    }
    const call = new Call(upstream, ctx, inflight);
    if (signal !== undefined) call.signal = signal;
    return call;
  }
}

/**
 * The options of an upstream request made for downstream `call`: tagged with its tag (so that
 * what the upstream asks or logs meanwhile goes to its client), cancelled with it, and, for a
 * 2026-07-28 upstream, asking for the downstream client's log level and declaring its
 * elicitation, sampling and roots capabilities (the gateway forwards those requests to it), so
 * that an upstream asks only what that client can answer, and its MCP Apps extension settings
 * when it declared them (whether it renders views). Legacy upstreams learn the gateway's
 * capabilities (all three) once, at initialize.
 */
export function forwarded(call: Call): CallOptions {
  const { ctx } = call;
  const { elicitation, sampling, roots } = ctx.client.capabilities;
  const capabilities: Spec.ClientCapabilities = {};
  if (elicitation !== undefined) capabilities.elicitation = elicitation;
  if (sampling !== undefined) capabilities.sampling = sampling;
  if (roots !== undefined) capabilities.roots = roots;
  // MCP Apps: an upstream learns whether the client it serves renders views.
  const ui = ctx.client.capabilities.extensions?.[APPS_EXTENSION];
  if (ui !== undefined) capabilities.extensions = { [APPS_EXTENSION]: ui };
  const options: CallOptions = {
    tag: call.tag,
    cancellation: ctx.cancellation, // not ctx.signal: no AbortSignal made per forwarded call
    clientCapabilities: capabilities,
    logLevel: ctx.logLevel ?? null,
  };
  if (call.signal !== undefined) options.signal = call.signal;
  return options;
}

/**
 * What relays an upstream's progress to `ctx`'s client: returned by a function, not written as
 * `options.onProgress = (…) => …`, which V8 would make in the old generation (issue #44).
 */
export function relay(ctx: HandlerContext): NonNullable<CallOptions['onProgress']> {
  return (progress, total, message) => {
    void ctx.progress(progress, total, message).catch(() => undefined);
  };
}
