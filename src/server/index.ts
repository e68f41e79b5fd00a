// mcpkit/server: the MCP server framework.
export { McpServer } from './server.js';
export type { LargeResults, LargeResultsOptions } from './large-result.js';
export { largeResults } from './large-result.js';
export type { McpServerOptions } from './server.js';
export type { ChangeBus, ServerChange } from './core.js';
export type {
  Middleware,
  MiddlewareContext,
  NotificationContext,
  NotificationMiddleware,
  RequestMiddleware,
  ToolCallContext,
  ToolCallMiddleware,
  ToolCallResult,
} from './middleware.js';
export { answerRequest } from './middleware.js';
export type { OutgoingContext, OutgoingMiddleware } from './outgoing.js';
export { ServerSession } from './session.js';
export type { SessionOptions } from './session.js';
export { MissingCapabilityError, redirectContext } from './context.js';
export type { ContextRedirect } from './context.js';
export type {
  CacheHint,
  ClientDescription,
  Completer,
  CoreHandlerContext,
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
export type { StateKey, StateSecret } from './seal.js';
export type {
  ExtensionCall,
  ExtensionCapability,
  ExtensionHost,
  ExtensionListen,
  ExtensionMethod,
  ServerExtension,
} from './extension.js';
export type { MethodDeclaration } from '../protocol/methods.js';
