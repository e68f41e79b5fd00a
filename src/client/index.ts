// mcpkit/client: the MCP client, for every revision over any Transport. See docs/client.md.
export { Client } from './client.js';
export type { CompleteOptions } from './client.js';
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
