// mcpkit/host: connects a model (Anthropic Messages, OpenAI-compatible Chat Completions) to many
// MCP servers. See docs/host.md.
export { Host } from './host.js';
export type {
  CallRecord,
  HostEvent,
  HostOptions,
  HostTool,
  RunOptions,
  RunResult,
  RunStopReason,
  ServerStatus,
  ToolCost,
} from './host.js';
export type {
  AudioPart,
  DocumentPart,
  HostMessage,
  ImagePart,
  ModelAdapter,
  ModelCallOptions,
  ModelCapabilities,
  ModelRequest,
  ModelResponse,
  ModelTool,
  Part,
  ResultContent,
  StopReason,
  TextPart,
  ToolCallPart,
  ToolChoice,
  ToolResultPart,
} from './types.js';
export { ModelError } from './types.js';
export type { Fetch } from './http.js';
export type { AnthropicOptions, AnthropicRequestBody } from './anthropic.js';
export { ANTHROPIC_VERSION, anthropicBody, createAnthropicAdapter } from './anthropic.js';
export type { OpenAiOptions, OpenAiRequestBody } from './openai.js';
export { OPENAI_MAX_TOOLS, createOpenAiAdapter, openAiBody } from './openai.js';
export type {
  HttpServerConfig,
  ServerConfig,
  StdioServerConfig,
  TransportServerConfig,
} from './config.js';
export { createServerTransport, parseServersConfig } from './config.js';
export type { NamedTool, ServerToolRef } from './names.js';
export { MODEL_TOOL_NAME, nameTools, sanitize } from './names.js';
export { adaptInputSchema } from './schema.js';
export type {
  ApprovalCallback,
  ApprovalMode,
  ApprovalPolicy,
  ApprovalRequest,
  ApprovalRule,
  Decision,
} from './approval.js';
export { decide, ruleFor } from './approval.js';
export type { ShapeOptions, ShapedResult } from './shape.js';
export {
  DEFAULT_RESULT_TOKENS,
  MAX_RESULT_CHARS_META,
  declinedResult,
  embeddedResource,
  errorResult,
  linkText,
  mediaNote,
  resolveLink,
  shapeBlock,
  shapeResult,
  truncateParts,
} from './shape.js';
export type { CountTokens, Tokenizer } from './tokens.js';
export {
  ENCODING,
  ESTIMATE,
  loadTokenizer,
  loadTokenizerOrEstimate,
  serializeTool,
} from './tokens.js';
export type { Searchable } from './discovery.js';
export { SEARCH_TOOLS, SEARCH_TOOLS_DEFINITION, searchTools } from './discovery.js';
