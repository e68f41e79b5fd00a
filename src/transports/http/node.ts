// mcpkit/transports/http/node: the Node faces of the Streamable HTTP transport. The server's
// node:http handler (writes straight to ServerResponse) and the client's fetch over raw
// keep-alive sockets (pass it as `createStreamableHttpClientTransport(url, { fetch })`).
export * from './server/node.js';
export type { NodeFetch, NodeFetchOptions } from './client/node-fetch.js';
export { createNodeFetch } from './client/node-fetch.js';
