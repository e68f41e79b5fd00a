// The seam between transports that accept connections (Streamable HTTP, stdio servers) and the
// server that serves them, without either importing the other (docs/design.md, "Layers").
import type { RequestContext } from '../jsonrpc/serve.js';
import type { Request, Response } from '../jsonrpc/message.js';
import type { Transport } from '../jsonrpc/transport.js';
import type { LegacyRevision } from './version.js';

/** Options a transport passes when it connects a server to a client. */
export interface ConnectOptions {
  /**
   * Serve legacy requests without a handshake, at this revision: stateless Streamable HTTP,
   * where each request may reach a fresh connection.
   */
  legacyStateless?: { revision: LegacyRevision };
  /**
   * Resume a legacy session another process (or an earlier connection) initialized: serve at
   * this revision for this client without a handshake (a session store shared by processes).
   */
  restore?: RestoredSession;
}

/** What a resumed legacy session needs of its `initialize`. */
export interface RestoredSession {
  readonly revision: LegacyRevision;
  /** The client's `capabilities` and `clientInfo`, as its initialize sent them. */
  readonly capabilities: unknown;
  readonly clientInfo: unknown;
  /** The level `logging/setLevel` set, if any. */
  readonly logLevel?: string;
  /** The URIs `resources/subscribe` subscribed to, if any. */
  readonly subscriptions?: readonly string[];
}

/** Something a transport can connect to a client: McpServer is one. */
export interface Connectable {
  /** Starts serving one client over `transport`; resolves once it is started. */
  connect(transport: Transport, options?: ConnectOptions): Promise<unknown>;
  /**
   * Serves one request that arrives on its own (a 2026-07-28 or stateless POST) without a
   * connection, sending what relates to the request through `context`. Answers the response,
   * synchronously when it could serve the request without waiting, else a promise that never
   * rejects; never throws. Any method: what a request asks a session to keep is not kept.
   */
  serveRequest(
    request: Request,
    context: RequestContext,
    options?: ConnectOptions,
  ): Response | Promise<Response>;
}
