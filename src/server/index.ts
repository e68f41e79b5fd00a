// mcpkit/server: the MCP server framework.
export { McpServer } from './server.js';
export type { McpServerOptions } from './server.js';
export type { ChangeBus, ServerChange } from './core.js';
export type {
  Middleware,
  MiddlewareContext,
  RequestMiddleware,
  ToolCallContext,
  ToolCallMiddleware,
  ToolCallResult,
} from './middleware.js';
export { ServerSession } from './session.js';
export type { SessionOptions } from './session.js';
export { MissingCapabilityError } from './context.js';
export type {
  CacheHint,
  ClientDescription,
  Completer,
  ElicitParams,
  HandlerContext,
  InferArgs,
  InputOptions,
  JsonSchemaObject,
  LoggingLevel,
  PromptArgumentDefinition,
  PromptDefinition,
  PromptHandler,
  PromptReturn,
  RegisteredHandle,
  ResourceDefinition,
  ResourceHandler,
  ResourceReturn,
  ResourceTemplateDefinition,
  ResourceTemplateHandler,
  SchemaInput,
  ServerInfo,
  ToolDefinition,
  ToolHandler,
  ToolHandlerFor,
  ToolReturn,
  ToolResult,
  StructuredToolResult,
  ToolErrorResult,
  StructuredToolReturn,
  StructuredToolHandler,
} from './types.js';
export type { StandardSchemaV1 } from './standard-schema.js';
export { JsonRpcError } from '../jsonrpc/errors.js';
export type { MemoryTaskStoreOptions, TaskRecord, TaskSignal, TaskStore } from './tasks/store.js';
export { MemoryTaskStore, TaskLimitError } from './tasks/store.js';
// What a TaskStore of its own (mcpkit/stores/redis, mcpkit/stores/postgres) shares with the
// memory store: the local signal listeners, the per-owner quota and its refusal, the ordering.
export {
  DEFAULT_MAX_TASKS_PER_OWNER,
  TaskListeners,
  byCreation,
  finishedOldestFirst,
  limitOption,
  ownerQuotaError,
} from './tasks/store.js';
export type { StateKey, StateSecret } from './seal.js';
export type { DetailedTask, Task, TaskStatus } from '../protocol/tasks.js';
export { TASKS_EXTENSION } from '../protocol/tasks.js';
export type {
  ExtensionCall,
  ExtensionCapability,
  ExtensionHost,
  ExtensionMethod,
  ServerExtension,
} from './extension.js';
export type { MethodDeclaration } from '../protocol/methods.js';
