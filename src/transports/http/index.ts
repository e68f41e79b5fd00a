// mcpkit/transports/http: the Streamable HTTP server transport (every revision), its Fetch API
// face and the SSE codec. Runtime-neutral: the node:http face is mcpkit/transports/http/node.
export type {
  BodyLimits,
  HeaderMap,
  HttpExchange,
  HttpReply,
  HttpReplyBody,
  SseChunk,
} from './server/exchange.js';
export { BodyError, isStreamBody } from './server/exchange.js';
export type {
  EventStore,
  MemoryEventStoreOptions,
  Replay,
  StoredEvent,
} from './server/event-store.js';
export { MemoryEventStore } from './server/event-store.js';
export type { ConnectableFactory, StreamableHttpHandler } from './server/handler.js';
export { createStreamableHttpHandler } from './server/handler.js';
export type { HttpHandle, HttpMiddleware } from './server/middleware.js';
export { compose } from './server/middleware.js';
export type { HttpMessageInfo } from './server/context.js';
export type {
  CloseOptions,
  CorsOptions,
  HealthOptions,
  HttpAuthOptions,
  LegacySseOptions,
  ResponseMode,
  StreamableHttpOptions,
} from './server/options.js';
export type { FetchExtra, FetchHandler } from './server/fetch.js';
export type { SessionEvent, SessionRecord, SessionStore } from './server/session-store.js';
export { createFetchHandler, toFetchHandler } from './server/fetch.js';
export { decodeHeaderValue, encodeHeaderValue } from '../../protocol/param-headers.js';
export type { SseEvent } from './sse.js';
export { SseParser, encodeSseComment, encodeSseEvent } from './sse.js';
export type {
  HttpSendOptions,
  StreamableHttpClientOptions,
  StreamableHttpClientTransport,
} from './client/transport.js';
export { createStreamableHttpClientTransport } from './client/transport.js';
export type { SseClientOptions, SseClientTransport } from './client/legacy-sse.js';
export { createSseClientTransport } from './client/legacy-sse.js';
export type { FetchLike, HeadersOption, HttpErrorData, ReconnectOptions } from './client/http.js';
export { HttpErrorCode } from './client/http.js';
