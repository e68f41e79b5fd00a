// The official SDK v1 with sessions, as its examples wire it: one McpServer and one
// StreamableHTTPServerTransport per session, kept in a map by Mcp-Session-Id. JSON answers.
import { buildSdk1 } from './sdk1-common.mjs';
import { serveSdk1 } from './sdk1-serve.mjs';

serveSdk1(buildSdk1, { stateless: false });
