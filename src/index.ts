// mcpkit: the runtime-neutral root. Node-only pieces (stdio, node:http) live under their own subpaths.
export { ErrorCode, JsonRpcError, LocalError, LocalErrorCode } from './jsonrpc/errors.js';
export type { Message, RequestId } from './jsonrpc/message.js';
export type { Transport, Receiver, MessageInfo, SendOptions } from './jsonrpc/transport.js';
export { McpErrorCode } from './protocol/errors.js';
export {
  LATEST_LEGACY_REVISION,
  LATEST_REVISION,
  PROTOCOL_REVISIONS,
  type ProtocolEra,
  type ProtocolRevision,
} from './protocol/version.js';
export { McpServer } from './server/server.js';
export type { McpServerOptions } from './server/server.js';
export type { HandlerContext, ToolDefinition, ToolHandler } from './server/types.js';
export { Client } from './client/client.js';
export type { ClientOptions } from './client/types.js';
