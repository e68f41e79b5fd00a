// The middleware of docs/middleware.md, as one module: request logging, timing, a per-principal
// tool allow-list, a cached tool and a rate limit. The docs' blocks are copied from here (a test
// checks that they still are), and test/integration/server-middleware.test.ts runs them in both
// eras over stdio and Streamable HTTP. Only types are imported: the module runs as it is once
// its types are stripped.
import type {
  Middleware,
  RequestMiddleware,
  ToolCallMiddleware,
  ToolCallResult,
} from '../src/server/index.js';

/** One line per request: method, era, revision, and how it ended. */
export function requestLog(write: (line: string) => void): RequestMiddleware {
  return async (ctx, next) => {
    const what = `${ctx.method} (${ctx.era} ${ctx.revision ?? 'before initialize'})`;
    try {
      const result = await next();
      write(`${what}: ok`);
      return result;
    } catch (error) {
      write(`${what}: failed, ${error instanceof Error ? error.message : String(error)}`);
      throw error;
    }
  };
}

/** How long each tool call took, the middleware after it and the handler included. */
export function timing(record: (tool: string, ms: number) => void): ToolCallMiddleware {
  return async (call, next) => {
    const start = performance.now();
    try {
      return await next();
    } finally {
      record(call.name, performance.now() - start);
    }
  };
}

/**
 * Each principal sees and calls only the tools it is allowed: `allowed` maps a subject (the
 * verified token's `sub`; `anonymous` without the HTTP auth gate) to tool names.
 */
export function allowTools(allowed: Readonly<Record<string, readonly string[]>>): Middleware {
  const may = (who: string, tool: string) => allowed[who]?.includes(tool) === true;
  return {
    // tools/list shows only the allowed tools.
    request: async (ctx, next) => {
      const result = await next();
      if (ctx.method !== 'tools/list') return result;
      const who = ctx.auth?.subject ?? 'anonymous';
      const list = result as { tools: { name: string }[] };
      return { ...list, tools: list.tools.filter((tool) => may(who, tool.name)) };
    },
    // A call of any other tool fails: the model reads why.
    toolCall: (call, next) => {
      const who = call.ctx.auth?.subject ?? 'anonymous';
      if (!may(who, call.name)) throw new Error(`${who} may not call ${call.name}`);
      return next();
    },
  };
}

/**
 * Answers repeated calls of the tool `name` with the same arguments from a cache for `ttlMs`
 * (at most `size` entries, the oldest dropped first). Failed calls are not kept.
 */
export function cacheTool(name: string, ttlMs: number, size = 1000): ToolCallMiddleware {
  const cache = new Map<string, { at: number; result: ToolCallResult }>();
  return async (call, next) => {
    if (call.name !== name) return next();
    // A result is shaped for its revision: the revision is part of the key.
    const key = `${call.ctx.revision} ${JSON.stringify(call.arguments)}`;
    const hit = cache.get(key);
    if (hit !== undefined && Date.now() - hit.at < ttlMs) return hit.result;
    const result = await next();
    if (result.isError !== true) {
      cache.delete(key);
      if (cache.size >= size) cache.delete(cache.keys().next().value ?? '');
      cache.set(key, { at: Date.now(), result });
    }
    return result;
  };
}

/**
 * At most `limit` tool calls per principal in each window of `windowMs`; one more fails with
 * an `isError` result that says when to try again (the model can wait and retry).
 */
export function rateLimit(limit: number, windowMs: number): ToolCallMiddleware {
  const windows = new Map<string, { start: number; calls: number }>();
  return (call, next) => {
    const who = call.ctx.auth?.subject ?? 'anonymous';
    const now = Date.now();
    let window = windows.get(who);
    if (window === undefined || now - window.start >= windowMs) {
      // Forget the windows that have ended, so the map holds only current principals.
      for (const [key, old] of windows) if (now - old.start >= windowMs) windows.delete(key);
      window = { start: now, calls: 0 };
      windows.set(who, window);
    }
    window.calls++;
    if (window.calls > limit) {
      const wait = Math.ceil((window.start + windowMs - now) / 1000);
      throw new Error(
        `rate limit: ${String(limit)} tool calls at most; try again in ${String(wait)} s`,
      );
    }
    return next();
  };
}
