// everything: a reference server that exercises every MCP feature in both eras, for client
// developers to test against. Tools (tools.ts), resources and prompts (content.ts) share one
// state object; the factory returns the server with a close() that also stops its timer.
import type { McpServerOptions } from '../../src/server/index.js';
import type { TasksOptions } from '../../src/ext/tasks/index.js';
import { tasks } from '../../src/ext/tasks/index.js';
import { McpServer } from '../../src/server/index.js';
import { everythingApps } from './apps.js';
import { skills } from '../../src/ext/skills/index.js';
import type { EverythingState } from './content.js';
import { registerContent } from './content.js';
import { TOUR_FILES, TOUR_SKILL } from './skills.js';
import { registerTools } from './tools.js';

/** Options of {@link createEverythingServer}. Every field is optional. */
export interface EverythingServerOptions {
  /** The environment get-env reads from. Default: empty (the process wiring passes its own). */
  env?: Readonly<Record<string, string | undefined>>;
  /** The only variables get-env may show. Default: none, so no secret leaks by default. */
  envAllowList?: readonly string[];
  /** How often simulated resource updates happen while on. Default: 5000 ms. */
  updateIntervalMs?: number;
  /** How long each simulated research step takes. Default: 250 ms. */
  researchStepMs?: number;
  /** Random numbers in [0, 1) for simulated log levels. Default: Math.random. */
  random?: () => number;
  /** Options for the underlying McpServer (page size, state secret, onError, …). */
  server?: McpServerOptions;
  /** Options of its tasks extension (`tasks()` of mcpkit/tasks: a shared store, the TTL, …). */
  tasks?: TasksOptions;
}

/** An everything server and how to stop it. */
export interface EverythingServer {
  /** The MCP server; connect transports to it. */
  readonly server: McpServer;
  /** Stops the simulated-update timer and closes every session. Idempotent. */
  close(): Promise<void>;
  /** Resolves once its skill (mcpkit-tour, the skills extension) is published. */
  readonly ready: Promise<void>;
}

const INSTRUCTIONS =
  'A test server: each tool demonstrates one MCP feature (its description says which). ' +
  'Resources live under demo://; prompts and template variables support completion.';

/** Creates an everything server. */
export function createEverythingServer(options: EverythingServerOptions = {}): EverythingServer {
  const server = new McpServer(
    { name: 'everything', title: 'Everything (MCP feature tour)', version: '0.1.0' },
    { instructions: INSTRUCTIONS, ...options.server },
  );
  const registered = registerEverything(server, options);
  return {
    server,
    ready: registered.ready,
    close: async () => {
      await registered.close();
      await server.close();
    },
  };
}

/**
 * Adds the everything tools, resources and prompts to an existing server (the demo composes
 * servers this way). Returns what stops its timer.
 */
export function registerEverything(
  server: McpServer,
  options: EverythingServerOptions = {},
): { close(): Promise<void>; ready: Promise<void> } {
  const state: EverythingState = {
    simulatedLogging: false,
    updates: undefined,
    revision: 1,
    gzipped: new Map(),
  };
  const updateIntervalMs = options.updateIntervalMs ?? 5000;
  if (!(updateIntervalMs >= 1)) throw new TypeError('updateIntervalMs must be at least 1');
  const shown = everythingApps();
  // Its research tool may become a task (ctx.startTask()).
  server.extend(tasks(options.tasks));
  registerTools(server, state, {
    env: options.env ?? {},
    envAllowList: options.envAllowList ?? [],
    updateIntervalMs,
    researchStepMs: options.researchStepMs ?? 250,
    random: options.random ?? Math.random,
    views: shown.views,
  });
  registerContent(server, state);
  server.extend(shown.extension);
  // The skill is checked and hashed in the background; it is there before any client can ask.
  const published = skills();
  server.extend(published);
  const ready = published.add(TOUR_SKILL, TOUR_FILES).then(() => undefined);
  ready.catch(() => undefined);
  return {
    ready,
    close: () => {
      if (state.updates !== undefined) clearInterval(state.updates);
      state.updates = undefined;
      return Promise.resolve();
    },
  };
}
