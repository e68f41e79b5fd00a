// The rate limits as a tool-call middleware of a gateway's McpServer: around every call of a
// served tool, after the gateway's own access checks (a hidden tool is refused as unknown before
// any token is taken), so that a refused call never reaches its upstream.
import type { Middleware, ToolCallResult } from '../../server/index.js';
import type { Limiter } from './limiter.js';
import { principalOf } from '../principal.js';

/**
 * The middleware applying `limiter` to the calls of served tools; `upstreamOf` names the
 * upstream serving a served tool (undefined for the gateway's own tools, such as search_tools,
 * which are not limited).
 */
export function rateLimits(
  limiter: Limiter,
  upstreamOf: (served: string) => string | undefined,
): Middleware {
  return {
    toolCall: (call, next) => {
      // No limits configured: the call passes at once (the common case costs one branch).
      if (!limiter.active) return next();
      const upstream = upstreamOf(call.name);
      if (upstream === undefined) return next();
      const { ctx } = call;
      const limited = {
        principal: principalOf(ctx).key,
        upstream,
        tool: call.name,
        cancellation: ctx.cancellation,
      };
      return limiter.run<ToolCallResult>(limited, next);
    },
  };
}
