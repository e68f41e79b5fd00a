// mcpkit/code-mode: code mode for hosts and gateways. The model gets one tool, `run_code`, whose
// description declares every MCP tool as a typed async function (one namespace per server); its
// code runs in QuickJS compiled to WebAssembly (the optional peer quickjs-emscripten), with no
// network, file system or timers, and bounded time, memory, tool calls and output. See
// docs/host.md#code-mode.
export type {
  CallOutcome,
  CodeRunResult,
  RunCodeOptions,
  SandboxLimits,
  ToolCaller,
} from './sandbox.js';
export { DEFAULT_LIMITS, loadQuickJs, runCode } from './sandbox.js';
export type { DeclaredTool } from './declarations.js';
export { declareFunction, declareNamespace, identifier, schemaType } from './declarations.js';
export type {
  ApiEntry,
  CodeApi,
  CodeApiOptions,
  CodeModeTool,
  CodeToolCaller,
  RunCodeToolOptions,
} from './code-tool.js';
export {
  CODE_TOOL,
  buildCodeApi,
  formatRun,
  outcome,
  runCodeTool,
  searchApi,
} from './code-tool.js';
