// mcpkit/host: connects a model (Anthropic Messages, OpenAI-compatible Chat Completions) to many
// MCP servers. See docs/host.md.
export { Host } from './host.js';
export type {
  CallRecord,
  HostCodeModeOptions,
  HostEvent,
  HostOptions,
  HostTool,
  RunOptions,
  RunResult,
  RunStopReason,
  ServerStatus,
  ToolCost,
} from './host-types.js';
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
  ProviderPart,
  ResultContent,
  StopReason,
  TextPart,
  ToolCallPart,
  ToolChoice,
  ToolResultPart,
  ToolSearchKind,
} from './types.js';
export { ModelError } from './types.js';
export type { Fetch } from './http.js';
export type { AnthropicOptions, AnthropicRequestBody } from './anthropic.js';
export {
  ANTHROPIC_VERSION,
  TOOL_SEARCH_BETA,
  TOOL_SEARCH_TOOLS,
  anthropicBody,
  createAnthropicAdapter,
} from './anthropic.js';
export type { DeferLoadingOptions, PlanInput, ToolMode, ToolPlan } from './tool-plan.js';
export { DEFAULT_DEFER_THRESHOLD, planTools } from './tool-plan.js';
export type { OpenAiOptions, OpenAiRequestBody } from './openai.js';
export { OPENAI_MAX_TOOLS, createOpenAiAdapter, openAiBody } from './openai.js';
// The catalogue's names, exported here as before they moved to mcpkit/catalogue (docs/migration.md).
export type {
  CountTokens,
  HttpServerConfig,
  NamedTool,
  Searchable,
  ServerConfig,
  ServerToolRef,
  StdioServerConfig,
  Tokenizer,
  TransportServerConfig,
} from '../catalogue/index.js';
export {
  ENCODING,
  ESTIMATE,
  MODEL_TOOL_NAME,
  SEARCH_TOOLS,
  SEARCH_TOOLS_DEFINITION,
  createServerTransport,
  loadTokenizer,
  loadTokenizerOrEstimate,
  nameTools,
  parseServersConfig,
  sanitize,
  searchTools,
  serializeTool,
} from '../catalogue/index.js';
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
export type { CallView } from './views.js';
export { DEFAULT_VIEW_BYTES } from './views.js';
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
export type { HandOffOptions, HandOffSettings } from './handoff.js';
export {
  MAX_READ_CHARS,
  RANGED_LENGTH_META,
  READ_RESULT,
  READ_RESULT_DEFINITION,
  ResultStore,
  handOff,
  handOffSettings,
} from './handoff.js';
export type {
  HostedMcpApproval,
  HostedMcpServer,
  McpApprovalRequest,
  ResponsesInputItem,
  ResponsesInputPart,
  ResponsesOptions,
  ResponsesRequestBody,
  ResponsesTool,
} from './responses.js';
export {
  createResponsesAdapter,
  hostedMcpApproval,
  inputItems,
  responsesBody,
  responsesResponse,
} from './responses.js';
