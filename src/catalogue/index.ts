// mcpkit/catalogue: what a program that gathers the tools of many MCP servers needs, whatever it
// does with them (the host of `mcpkit chat`, the gateway, the CLI's budget and lint): the one
// reader of the `mcpServers` config format, one namespace of model-valid tool names, token
// counts of tool definitions, the keyword search behind `search_tools`, and which tools MCP Apps
// keep from models (app-only visibility) and link to views. See docs/design.md.
export type {
  HttpServerConfig,
  ParseServersOptions,
  ServerConfig,
  StdioServerConfig,
  TransportServerConfig,
} from './servers-config.js';
export { createServerTransport, parseServersConfig } from './servers-config.js';
export type { NamedTool, ServerToolRef } from './names.js';
export { MODEL_TOOL_NAME, nameTools, sanitize } from './names.js';
export type { CountTokens, Tokenizer } from './tokens.js';
export {
  ENCODING,
  ESTIMATE,
  loadTokenizer,
  loadTokenizerOrEstimate,
  serializeTool,
} from './tokens.js';
export type { Searchable } from './search.js';
export { SEARCH_TOOLS, SEARCH_TOOLS_DEFINITION, searchTools } from './search.js';
export type { ToolAudience } from './apps.js';
export {
  APPS_CLIENT_SETTINGS,
  APPS_EXTENSION,
  APP_MIME_TYPE,
  FLAT_RESOURCE_URI_KEY,
  declaresApps,
  isAppVisible,
  isModelVisible,
  isUiUri,
  toolVisibility,
  uiResourceUri,
} from './apps.js';
