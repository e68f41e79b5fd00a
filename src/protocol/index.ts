// mcpkit/protocol: MCP semantics without I/O: the spec types of every revision, the method table,
// revision negotiation and MCP's error codes.
export type {
  Spec20241105,
  Spec20250326,
  Spec20250618,
  Spec20251125,
  Spec20260728,
} from './schema/index.js';
export {
  McpErrorCode,
  headerMismatch,
  invalidMeta,
  invalidParams,
  missingRequiredClientCapability,
  modernHttpStatus,
  resourceNotFound,
  unsupportedProtocolVersion,
  urlElicitationRequired,
} from './errors.js';
export type {
  InvalidMetaData,
  McpErrorCodeValue,
  MissingRequiredClientCapabilityData,
  ResourceNotFoundData,
  UnsupportedProtocolVersionData,
  UrlElicitationRequiredData,
} from './errors.js';
export {
  PARAM_HEADER_PREFIX,
  checkParamHeaders,
  decodeHeaderValue,
  encodeHeaderValue,
  paramHeaderValues,
  scanParamHeaders,
} from './param-headers.js';
export type { ParamHeader, ParamHeaderScan } from './param-headers.js';
export { LOGGING_LEVELS, isLoggingLevel, meetsLoggingLevel } from './logging.js';
export {
  METHODS,
  directionOf,
  isCacheable,
  isInputRequest,
  isMethod,
  methodExists,
  methodsOf,
  nameParamOf,
} from './methods.js';
export type {
  Direction,
  MessageOf,
  Method,
  // What an extension declares of each method it adds (server.extend, client.extend).
  MethodDeclaration,
  MethodInfo,
  NotificationMethod,
  ParamsOf,
  RequestMethod,
  ResultOf,
} from './methods.js';
export {
  LATEST_LEGACY_REVISION,
  LATEST_REVISION,
  LEGACY_REVISIONS,
  MODERN_REVISIONS,
  MetaKey,
  PROTOCOL_REVISIONS,
  acceptServerRevision,
  chooseRevision,
  eraOf,
  isCompleteResult,
  isInputRequiredResult,
  isProtocolRevision,
  negotiateLegacyRevision,
  metaProtocolVersion,
  readModernMeta,
  requireModernRevision,
} from './version.js';
export type {
  LegacyRevision,
  MetaKeyValue,
  ModernMeta,
  ModernRevision,
  ProtocolEra,
  ProtocolRevision,
} from './version.js';
export type { NameProblem, NameProblemCode } from './names.js';
export {
  checkMetaKey,
  checkToolName,
  isReservedMetaPrefix,
  isValidToolName,
  TOOL_NAME_MAX_LENGTH,
} from './names.js';
export { UriTemplate, isUriTemplate } from './uri-template/index.js';
// The built-in JSON Schema validator: compile a schema, and its issues as readable lines.
export { compileJsonSchema, formatIssues } from './json-schema/index.js';
export type {
  UriTemplateMatch,
  UriTemplateValue,
  UriTemplateVariables,
} from './uri-template/index.js';
export type { Connectable, ConnectOptions } from './connectable.js';
export type {
  AuthErrorCode,
  AuthInfo,
  AuthorizedRequest,
  Challenge,
  HttpAuthorizer,
  InsufficientScopeData,
  RefusedRequest,
  ProtectedResourceMetadata,
  TokenRequest,
  TokenVerifier,
} from './auth.js';
export {
  AuthError,
  AuthorizationError,
  INSUFFICIENT_SCOPE,
  bearerChallenge,
  checkScopes,
  isAuthInfo,
  metadataUrls,
  missingScopes,
  parseChallenges,
  principalKey,
  protectedResourceMetadataUrl,
  resourceMetadataUrls,
} from './auth.js';
