// mcpkit/client: the MCP client, for every revision over any Transport. See docs/client.md.
export { Client } from './client.js';
export type { CompleteOptions } from './client.js';
export type {
  ClientMiddleware,
  ClientMiddlewareContext,
  ClientMiddlewareHooks,
  ClientNotificationContext,
  ClientNotificationMiddleware,
} from './middleware.js';
export type {
  CallOptions,
  CallToolResult,
  ClientConnectOptions,
  ClientOptions,
  CompleteRef,
  CompleteResult,
  ConnectMode,
  ElicitHandler,
  ElicitParams,
  Final,
  GetPromptResult,
  InputContext,
  ListKind,
  ListOptions,
  LogContext,
  LoggingLevel,
  Prompt,
  ReadResourceResult,
  RejectedTool,
  Resource,
  ResourceTemplate,
  Root,
  RootsHandler,
  SampleHandler,
  Subscription,
  SubscriptionFilter,
  Tool,
} from './types.js';
export { JsonRpcError, LocalError, LocalErrorCode } from '../jsonrpc/errors.js';
export { McpErrorCode } from '../protocol/errors.js';
export type { McpErrorCodeValue } from '../protocol/errors.js';
export type { OAuthClient } from './oauth/oauth-client.js';
export { createOAuthClient } from './oauth/oauth-client.js';
export type {
  AuthorizationServerMetadata,
  OAuthClientInformation,
  OAuthClientMetadata,
  OAuthClientOptions,
  OAuthGrant,
  OAuthProvider,
  OAuthStore,
  OAuthTokens,
  TokenEndpointAuthMethod,
} from './oauth/types.js';
export { fileStore, memoryStore } from './oauth/store.js';
export { AuthorizationError } from '../protocol/auth.js';
export type { HttpAuthorizer } from '../protocol/auth.js';
export type {
  ClientExtension,
  ClientExtensionHost,
  ClientExtensionIo,
  ClientToolCall,
  ClientToolCallHook,
  ResultHandler,
} from './extension.js';
export type { MethodDeclaration } from '../protocol/methods.js';
