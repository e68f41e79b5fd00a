// The operations of POST /api/request: each checks its params (a 400 names what is wrong) and
// maps onto one of the Client's methods. List operations also refresh the inspector's State.
import type { CallOptions, Client, CompleteRef, LoggingLevel } from '../../client/index.js';
import { ApiError, asObject, optionalObject, requireString } from './api-error.js';
import { tasksOf } from '../tasks-api.js';

/** What an operation may do besides calling the client. */
export interface OpContext {
  readonly client: Client;
  /** The call's options: its AbortSignal, progress sink and timeout. */
  readonly call: CallOptions;
  /** Called with the fresh list after a list operation. */
  refreshed(kind: ListName, items: unknown[]): void;
  /** Starts watching a task the page started (task events). */
  watchTask(task: { taskId: string }): void;
  /** The level set by setLogLevel. */
  logLevelSet(level: LoggingLevel): void;
}

/** The lists State holds. */
export type ListName = 'tools' | 'resources' | 'resourceTemplates' | 'prompts';

type Op = (params: Record<string, unknown>, ctx: OpContext) => Promise<unknown>;

const LEVELS = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'];

/** Every operation by name. */
export const OPS: Readonly<Record<string, Op>> = {
  async callTool(params, ctx) {
    const name = requireString(params, 'name', 'callTool');
    const args = optionalObject(params, 'arguments', 'callTool');
    const task = params['task'];
    if (task !== undefined && typeof task !== 'boolean') {
      throw new ApiError(400, 'callTool: "task" must be a boolean');
    }
    if (task !== true) return ctx.client.callTool(name, args, ctx.call);
    const started = await tasksOf(ctx.client).callToolAsTask(name, args, ctx.call);
    if ('task' in started) ctx.watchTask(started.task);
    return 'task' in started ? { task: started.task } : started.result;
  },
  readResource: (params, ctx) =>
    ctx.client.readResource(requireString(params, 'uri', 'readResource'), ctx.call),
  async subscribe(params, ctx) {
    await ctx.client.subscribe(requireString(params, 'uri', 'subscribe'), ctx.call);
    return {};
  },
  async unsubscribe(params, ctx) {
    await ctx.client.unsubscribe(requireString(params, 'uri', 'unsubscribe'), ctx.call);
    return {};
  },
  getPrompt(params, ctx) {
    const name = requireString(params, 'name', 'getPrompt');
    const args = optionalObject(params, 'arguments', 'getPrompt');
    for (const [key, value] of Object.entries(args)) {
      if (typeof value !== 'string') {
        throw new ApiError(400, `getPrompt: argument "${key}" must be a string`);
      }
    }
    return ctx.client.getPrompt(name, args as Record<string, string>, ctx.call);
  },
  complete(params, ctx) {
    const ref = asObject(params['ref']);
    const refType = ref?.['type'];
    if (
      ref === undefined ||
      !(
        (refType === 'ref/prompt' && typeof ref['name'] === 'string') ||
        (refType === 'ref/resource' && typeof ref['uri'] === 'string')
      )
    ) {
      throw new ApiError(
        400,
        'complete: "ref" must be {"type": "ref/prompt", "name"} or {"type": "ref/resource", "uri"}',
      );
    }
    const argument = asObject(params['argument']);
    if (typeof argument?.['name'] !== 'string' || typeof argument['value'] !== 'string') {
      throw new ApiError(400, 'complete: "argument" must be {"name": string, "value": string}');
    }
    const context = params['context'];
    const options =
      context === undefined ? ctx.call : { ...ctx.call, context: completeContext(context) };
    return ctx.client.complete(
      ref as unknown as CompleteRef,
      { name: argument['name'], value: argument['value'] },
      options,
    );
  },
  async setLogLevel(params, ctx) {
    const level = params['level'];
    if (typeof level !== 'string' || !LEVELS.includes(level)) {
      throw new ApiError(400, `setLogLevel: "level" must be one of ${LEVELS.join(', ')}`);
    }
    await ctx.client.setLogLevel(level as LoggingLevel, ctx.call);
    ctx.logLevelSet(level as LoggingLevel);
    return {};
  },
  async ping(_params, ctx) {
    await ctx.client.ping(ctx.call);
    return {};
  },
  listTools: (_params, ctx) => list(ctx, 'tools', () => ctx.client.listTools(ctx.call)),
  listResources: (_params, ctx) => list(ctx, 'resources', () => ctx.client.listResources(ctx.call)),
  listResourceTemplates: (_params, ctx) =>
    list(ctx, 'resourceTemplates', () => ctx.client.listResourceTemplates(ctx.call)),
  listPrompts: (_params, ctx) => list(ctx, 'prompts', () => ctx.client.listPrompts(ctx.call)),
  async listTasks(_params, ctx) {
    return { tasks: await tasksOf(ctx.client).listTasks(ctx.call) };
  },
  getTask: (params, ctx) =>
    tasksOf(ctx.client).getTask(requireString(params, 'taskId', 'getTask'), ctx.call),
  async cancelTask(params, ctx) {
    await tasksOf(ctx.client).cancelTask(requireString(params, 'taskId', 'cancelTask'), ctx.call);
    return {};
  },
  getTaskResult: (params, ctx) =>
    tasksOf(ctx.client).getTaskResult(requireString(params, 'taskId', 'getTaskResult'), ctx.call),
};

async function list(ctx: OpContext, kind: ListName, fetch: () => Promise<unknown[]>) {
  const items = await fetch();
  ctx.refreshed(kind, items);
  return { [kind]: items };
}

function completeContext(value: unknown): { arguments: Record<string, string> } {
  const args = asObject(asObject(value)?.['arguments']);
  if (args === undefined || !Object.values(args).every((v) => typeof v === 'string')) {
    throw new ApiError(400, 'complete: "context" must be {"arguments": {name: string}}');
  }
  return { arguments: args as Record<string, string> };
}

/** The four lists, empty. */
export function emptyLists(): Record<ListName, unknown[]> {
  return { tools: [], resources: [], resourceTemplates: [], prompts: [] };
}

/** One whole list of the server (every page). */
export function listOf(client: Client, kind: ListName): Promise<unknown[]> {
  if (kind === 'tools') return client.listTools();
  if (kind === 'resources') return client.listResources();
  if (kind === 'resourceTemplates') return client.listResourceTemplates();
  return client.listPrompts();
}
