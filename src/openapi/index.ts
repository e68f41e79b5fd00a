// mcpkit/openapi: a REST API described by OpenAPI 3.0 or 3.1 served as MCP tools, one per
// operation, curated and within a token budget. See docs/openapi.md.
export type {
  OpenApiDocument,
  OpenApiSchema,
  ParameterLocation,
  PlannedBody,
  PlannedOutput,
  PlannedParameter,
  SecurityScheme,
  ServerObject,
  ToolPlan,
} from './types.js';
export type { LoadOptions } from './load.js';
export { OpenApiLoadError, loadDocument } from './load.js';
export type { GenerateOptions, Generated, OperationRef } from './generate.js';
export { generateTools, operationsOf } from './generate.js';
export type { Curation, Selector, ToolOverride } from './curate.js';
export { applyOverrides, selectOperations } from './curate.js';
export type { Credential } from './auth.js';
export { credentialVariable } from './auth.js';
export type { OpenApiOptions, OpenApiServer } from './server.js';
export {
  DEFAULT_BUDGET,
  DEFAULT_MAX_TOOLS,
  MAX_FOUND,
  baseUrlOf,
  createOpenApiServer,
  openApiServer,
  overBudget,
  planTools,
} from './server.js';
export { TOOL_NAME } from './names.js';
