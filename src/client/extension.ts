// Client extensions: what an extension (skills, MCP Apps, one of a user's own) plugs into a
// client through `Client.extend()`: the methods it adds, declared into the method table, the
// settings it declares under `capabilities.extensions`, and its API over the client's
// connection. The client names no extension (docs/extensions.md).
import type { MethodDeclaration } from '../protocol/methods.js';
import { declareMethods } from '../protocol/methods.js';
import type * as Spec from '../protocol/schema/2026-07-28.js';
import type { ProtocolEra, ProtocolRevision } from '../protocol/version.js';
import type { CallOptions } from './types.js';

/** What an extension's API may use of the client it is added to. */
export interface ClientExtensionHost {
  /**
   * Sends a request to the connected server and resolves with its result (a 2026-07-28 one
   * without `resultType`, as every client call sees it); rejects as the client's calls do
   * (LocalError('NOT_CONNECTED') when not connected, a JsonRpcError for the server's error).
   */
  request(
    method: string,
    params: Record<string, unknown>,
    options?: CallOptions,
  ): Promise<Record<string, unknown>>;
  /** The connection's era, revision and what the server declared (throws when not connected). */
  readonly era: ProtocolEra;
  readonly revision: ProtocolRevision;
  readonly serverCapabilities: Spec.ServerCapabilities;
  /**
   * An object that stays the same for every call over one connection and differs for the next:
   * the key for what an extension remembers of one server (a WeakMap's). Throws when not connected.
   */
  readonly connection: object;
  /** Reports an error that does not reach a caller (the client's `onError`). */
  report(error: unknown): void;
}

/** An extension of the protocol for a client, added with `Client.extend()`. */
export interface ClientExtension<TApi> {
  /** Its identifier, the key of `capabilities.extensions` (`io.modelcontextprotocol/skills`). */
  readonly id: string;
  /** The methods it adds, by name, declared into the method table when it is added. */
  readonly methods?: Readonly<Record<string, MethodDeclaration>>;
  /**
   * Its settings under `capabilities.extensions[id]`, which the client declares to servers of
   * every revision (SEP-1724); undefined: it declares nothing.
   */
  readonly settings?: Record<string, unknown>;
  /** Makes the extension's API over the client, once, when it is added. */
  bind(host: ClientExtensionHost): TApi;
}

/**
 * Checks `extension` against those added before and declares its methods; throws TypeError for
 * a bad extension or one added already.
 */
export function checkClientExtension(
  extension: ClientExtension<unknown>,
  added: ReadonlySet<string>,
): void {
  const given: unknown = extension;
  if (typeof given !== 'object' || given === null || typeof extension.bind !== 'function') {
    throw new TypeError('client.extend takes an extension object: { id, bind(host) }');
  }
  if (typeof extension.id !== 'string' || extension.id === '') {
    throw new TypeError('an extension needs an id (the key of capabilities.extensions)');
  }
  if (added.has(extension.id)) throw new TypeError(`extension ${extension.id} is added already`);
  declareMethods(extension.methods ?? {});
}
