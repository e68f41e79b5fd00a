// mcpkit/transports/stdio: the stdio transport (newline-delimited JSON-RPC over a child process's
// standard streams). Node only. The framing is exported too, for custom transports that reuse it
// over other byte streams, as the 2026-07-28 stdio binding recommends.
export type { ProcessExit, StdioClientOptions, StdioClientTransport } from './client.js';
export { createStdioClientTransport, getDefaultEnvironment, ProcessExitError } from './client.js';
export type { LineSplitter, LineSplitterOptions } from './framing.js';
export { createLineSplitter, DEFAULT_MAX_LINE_BYTES, encodeFrame } from './framing.js';
export type { StdioServerOptions } from './server.js';
export { createStdioServerTransport } from './server.js';
