// mcpkit/transports/http: the Streamable HTTP server transport (every revision), its Fetch API
// face and the SSE codec. Runtime-neutral: the node:http face is mcpkit/transports/http/node.
export type { BodyLimits, HeaderMap, HttpExchange, HttpReply, HttpReplyBody } from './exchange.js';
export { BodyError, isStreamBody } from './exchange.js';
export type { EventStore, MemoryEventStoreOptions, Replay, StoredEvent } from './event-store.js';
export { MemoryEventStore } from './event-store.js';
export type { ConnectableFactory, StreamableHttpHandler } from './handler.js';
export { createStreamableHttpHandler } from './handler.js';
export type { HttpMessageInfo } from './context.js';
export type {
  CorsOptions,
  LegacySseOptions,
  ResponseMode,
  StreamableHttpOptions,
} from './options.js';
export type { FetchExtra, FetchHandler } from './fetch.js';
export { createFetchHandler, toFetchHandler } from './fetch.js';
export { decodeHeaderValue, encodeHeaderValue } from '../../protocol/param-headers.js';
export type { SseEvent } from './sse.js';
export { SseParser, encodeSseComment, encodeSseEvent } from './sse.js';
export type {
  HttpSendOptions,
  StreamableHttpClientOptions,
  StreamableHttpClientTransport,
} from './client.js';
export { createStreamableHttpClientTransport } from './client.js';
export type { SseClientOptions, SseClientTransport } from './client-sse.js';
export { createSseClientTransport } from './client-sse.js';
export type { FetchLike, HeadersOption, HttpErrorData, ReconnectOptions } from './client-http.js';
export { HttpErrorCode } from './client-http.js';
