// mcpkit/auth: token verifiers for the Streamable HTTP handler's `auth` option (an MCP server as
// an OAuth 2.1 resource server, spec basic/authorization). See docs/auth.md.
export type { JwtVerifierOptions } from './jwt.js';
export type { DpopOptions } from './dpop.js';
export type {
  DpopReplayStore,
  MemoryDpopReplayStore,
  MemoryDpopReplayStoreOptions,
} from './dpop-replay.js';
export { createMemoryDpopReplayStore } from './dpop-replay.js';
export { DEFAULT_ALGORITHMS, createJwtVerifier, principalOf } from './jwt.js';
export type { IntrospectionVerifierOptions } from './introspection.js';
export { createIntrospectionVerifier } from './introspection.js';
export { discover } from './discovery.js';
export { metadataUrls } from '../protocol/auth.js';
export type {
  AuthErrorCode,
  AuthInfo,
  InsufficientScopeData,
  ProtectedResourceMetadata,
  TokenRequest,
  TokenVerifier,
} from '../protocol/auth.js';
export { AuthError, INSUFFICIENT_SCOPE } from '../protocol/auth.js';
