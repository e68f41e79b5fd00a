// The official SDK v1 in its documented stateless pattern: a new McpServer and a new
// StreamableHTTPServerTransport (sessionIdGenerator: undefined) for every request, on node:http.
// JSON answers (enableJsonResponse), the cheaper of its two framings.
import { buildSdk1 } from './sdk1-common.mjs';
import { serveSdk1 } from './sdk1-serve.mjs';

serveSdk1(buildSdk1, { stateless: true });
