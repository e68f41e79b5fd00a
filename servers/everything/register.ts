// How everything registers a tool: every handler is wrapped so that, while simulated logging is
// on, each call also sends one log message at a random level through its own context. Logging
// needs a request in both eras (2026-07-28: the request's `_meta` logLevel decides; legacy
// sessions: logging/setLevel), so there is no background logger.
import type {
  HandlerContext,
  McpServer,
  RegisteredHandle,
  ToolDefinition,
} from '../../src/server/index.js';
import type { EverythingViews } from './apps.js';
import type { EverythingState } from './content.js';
import { pickLevel } from './logic.js';

/** The settings the tools need, resolved from the factory's options. */
export interface ToolSettings {
  env: Readonly<Record<string, string | undefined>>;
  envAllowList: readonly string[];
  updateIntervalMs: number;
  researchStepMs: number;
  random: () => number;
  /** What links tools to everything's MCP Apps views (apps.ts). */
  views: EverythingViews;
}

/** Registers one tool (with the simulated-logging wrapper): `server.tool`'s own overloads. */
export type Register = McpServer['tool'];

/** The input schema of a tool without arguments. */
export const NO_ARGS = { type: 'object', properties: {}, additionalProperties: false };
/** Annotations of a tool that only reads. */
export const READ_ONLY = { readOnlyHint: true, openWorldHint: false } as const;

/** Creates the registering function of one server. */
export function createRegister(
  server: McpServer,
  state: EverythingState,
  settings: ToolSettings,
): Register {
  // One wrapper for every kind of tool: the overloads of `server.tool` typed the call already.
  type AnyHandler = (args: never, ctx: HandlerContext) => unknown;
  const tool = server.tool.bind(server) as unknown as (
    d: ToolDefinition,
    h: AnyHandler,
  ) => RegisteredHandle<ToolDefinition>;
  const register = (definition: ToolDefinition, handler: AnyHandler) =>
    tool(definition, async (args: never, ctx: HandlerContext) => {
      if (state.simulatedLogging) {
        const level = pickLevel(settings.random());
        await ctx.log(level, `simulated ${level} message from ${definition.name}`, 'everything');
      }
      return handler(args, ctx);
    });
  return register;
}
