// How everything registers a tool: every handler is wrapped so that, while simulated logging is
// on, each call also sends one log message at a random level through its own context. Logging
// needs a request in both eras (2026-07-28: the request's `_meta` logLevel decides; legacy
// sessions: logging/setLevel), so there is no background logger.
import type {
  InferArgs,
  McpServer,
  SchemaInput,
  ToolDefinition,
  ToolHandler,
} from '../../src/server/index.js';
import type { EverythingState } from './content.js';
import { pickLevel } from './logic.js';

/** The settings the tools need, resolved from the factory's options. */
export interface ToolSettings {
  env: Readonly<Record<string, string | undefined>>;
  envAllowList: readonly string[];
  updateIntervalMs: number;
  researchStepMs: number;
  random: () => number;
}

/** Registers one tool (with the simulated-logging wrapper). */
export type Register = <TInput extends SchemaInput>(
  definition: ToolDefinition<TInput>,
  handler: ToolHandler<InferArgs<TInput>>,
) => void;

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
  return (definition, handler) => {
    server.tool(definition, async (args, ctx) => {
      if (state.simulatedLogging) {
        const level = pickLevel(settings.random());
        await ctx.log(level, `simulated ${level} message from ${definition.name}`, 'everything');
      }
      return handler(args, ctx);
    });
  };
}
