// Protocol revisions and how peers agree on one. There are two eras. Legacy revisions (up to
// 2025-11-25) agree once, in `initialize` (Spec 2025-11-25 basic/lifecycle#version-negotiation).
// The modern revision (2026-07-28) has no handshake: every request names its revision, capabilities
// and client in `params._meta` (Spec 2026-07-28 basic/versioning; SEP-2575).
import { isObject } from '../internal/json.js';
import { LocalError, LocalErrorCode } from '../jsonrpc/errors.js';
import { invalidMeta, invalidParams, unsupportedProtocolVersion } from './errors.js';
import { isLoggingLevel } from './logging.js';
import type { ClientCapabilities, Implementation, LoggingLevel } from './schema/2026-07-28.js';

/** Every protocol revision mcpkit implements, oldest first. */
export const PROTOCOL_REVISIONS = [
  '2024-11-05',
  '2025-03-26',
  '2025-06-18',
  '2025-11-25',
  '2026-07-28',
] as const;

/** One of the {@link PROTOCOL_REVISIONS}. */
export type ProtocolRevision = (typeof PROTOCOL_REVISIONS)[number];

/** The revisions negotiated by `initialize`, oldest first. */
export const LEGACY_REVISIONS = ['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25'] as const;

/** The revisions that carry their version in every request's `_meta`, oldest first. */
export const MODERN_REVISIONS = ['2026-07-28'] as const;

/** One of the {@link LEGACY_REVISIONS}. */
export type LegacyRevision = (typeof LEGACY_REVISIONS)[number];

/** One of the {@link MODERN_REVISIONS}. */
export type ModernRevision = (typeof MODERN_REVISIONS)[number];

/** The newest legacy revision. */
export const LATEST_LEGACY_REVISION = '2025-11-25';

/** The newest revision. */
export const LATEST_REVISION = '2026-07-28';

/** The era of a revision: `legacy` negotiates in `initialize`, `modern` on every request. */
export type ProtocolEra = 'legacy' | 'modern';

/** The `_meta` keys the spec reserves, by name (Spec 2026-07-28 `RequestMetaObject` & co.). */
export const MetaKey = {
  /** Request: the revision this request speaks (2026-07-28; required). */
  ProtocolVersion: 'io.modelcontextprotocol/protocolVersion',
  /** Request: the client's capabilities for this request (2026-07-28; required). */
  ClientCapabilities: 'io.modelcontextprotocol/clientCapabilities',
  /** Request: the client's name and version (2026-07-28). */
  ClientInfo: 'io.modelcontextprotocol/clientInfo',
  /** Request: the lowest log level the client wants for this request (2026-07-28). */
  LogLevel: 'io.modelcontextprotocol/logLevel',
  /** Result: the server's name and version (2026-07-28). */
  ServerInfo: 'io.modelcontextprotocol/serverInfo',
  /** Notification and `subscriptions/listen` result: the id of the subscription (2026-07-28). */
  SubscriptionId: 'io.modelcontextprotocol/subscriptionId',
  /** Message: the task a message belongs to (2025-11-25 tasks). */
  RelatedTask: 'io.modelcontextprotocol/related-task',
  /** Request: the token the receiver attaches to progress notifications (every revision). */
  ProgressToken: 'progressToken',
} as const;

/** One of the {@link MetaKey} values. */
export type MetaKeyValue = (typeof MetaKey)[keyof typeof MetaKey];

/** True when `value` is one of the {@link PROTOCOL_REVISIONS}. */
export function isProtocolRevision(value: unknown): value is ProtocolRevision {
  return typeof value === 'string' && (PROTOCOL_REVISIONS as readonly string[]).includes(value);
}

/** The era of `revision`. */
export function eraOf(revision: ProtocolRevision): ProtocolEra {
  return (MODERN_REVISIONS as readonly string[]).includes(revision) ? 'modern' : 'legacy';
}

const isLegacy = (revision: ProtocolRevision): revision is LegacyRevision =>
  eraOf(revision) === 'legacy';

const isModern = (revision: ProtocolRevision): revision is ModernRevision =>
  eraOf(revision) === 'modern';

/** The newest of `revisions` (which must not be empty). */
function newest<TRevision extends ProtocolRevision>(revisions: readonly TRevision[]): TRevision {
  return revisions.reduce((a, b) =>
    PROTOCOL_REVISIONS.indexOf(a) >= PROTOCOL_REVISIONS.indexOf(b) ? a : b,
  );
}

/** `revisions` sorted newest first, without duplicates. */
function newestFirst(revisions: readonly ProtocolRevision[]): ProtocolRevision[] {
  return PROTOCOL_REVISIONS.filter((r) => revisions.includes(r)).reverse();
}

const describe = (value: unknown): string =>
  typeof value === 'string' ? JSON.stringify(value) : typeof value;

/**
 * The revision a server answers `initialize` with: the client's `requested` revision when the
 * server supports it and it is a legacy one, else the newest legacy revision in `supported`.
 * Spec 2025-11-25 basic/lifecycle#version-negotiation. Throws TypeError when `supported` holds no
 * legacy revision (a configuration mistake: such a server has no `initialize`).
 */
export function negotiateLegacyRevision(
  requested: unknown,
  supported: readonly ProtocolRevision[] = LEGACY_REVISIONS,
): LegacyRevision {
  const legacy = supported.filter(isLegacy);
  if (legacy.length === 0) throw new TypeError('no legacy protocol revision is supported');
  const match = legacy.find((r) => r === requested);
  return match ?? newest(legacy);
}

/**
 * The revision a client continues with after `initialize`: the server's `offered` revision when the
 * client supports it. Otherwise the client must disconnect (the spec's SHOULD), so this throws a
 * LocalError with code UNSUPPORTED.
 */
export function acceptServerRevision(
  offered: unknown,
  supported: readonly ProtocolRevision[] = LEGACY_REVISIONS,
): LegacyRevision {
  const match = supported.filter(isLegacy).find((r) => r === offered);
  if (match === undefined) {
    throw new LocalError(
      LocalErrorCode.Unsupported,
      `server offered unsupported protocol revision ${describe(offered)}`,
    );
  }
  return match;
}

/**
 * The newest revision both sides support, from a list the server sent (`supportedVersions` of
 * `server/discover`, or `data.supported` of an UnsupportedProtocolVersion error); undefined when
 * there is none. Entries that are not revisions are ignored.
 */
export function chooseRevision(
  offered: unknown,
  supported: readonly ProtocolRevision[] = PROTOCOL_REVISIONS,
): ProtocolRevision | undefined {
  if (!Array.isArray(offered)) return undefined;
  const common = supported.filter((r) => offered.includes(r));
  return common.length === 0 ? undefined : newest(common);
}

/** What a 2026-07-28 request says about itself in `params._meta`; absent keys are left out. */
export interface ModernMeta {
  /** `io.modelcontextprotocol/protocolVersion`: the revision the request speaks. */
  protocolVersion?: string;
  /** `io.modelcontextprotocol/clientCapabilities`: the client's capabilities for this request. */
  clientCapabilities?: ClientCapabilities;
  /** `io.modelcontextprotocol/clientInfo`: the client's name and version. */
  clientInfo?: Implementation;
  /** `io.modelcontextprotocol/logLevel`: log messages wanted for this request, if any. */
  logLevel?: LoggingLevel;
}

const isImplementation = (value: unknown): value is Implementation =>
  isObject(value) && typeof value['name'] === 'string' && typeof value['version'] === 'string';

/**
 * Reads the modern-era keys of a request's `params._meta`. Absent keys (or an absent `params` or
 * `_meta`) are simply missing from the result; a key that is present with the wrong shape is an
 * InvalidParams (-32602) JsonRpcError, as is a `params` or `_meta` that is not an object. Whether a
 * missing key is acceptable is the caller's decision ({@link requireModernRevision} for the
 * revision).
 */
export function readModernMeta(params: unknown): Readonly<ModernMeta> {
  if (params === undefined) return NO_META;
  if (!isObject(params)) throw invalidParams('params must be an object');
  const meta = params['_meta'];
  if (meta === undefined) return NO_META;
  if (!isObject(meta)) throw invalidParams('params._meta must be an object');
  const result: ModernMeta = {};
  const version = meta[MetaKey.ProtocolVersion];
  if (version !== undefined) {
    if (typeof version !== 'string') throw bad(MetaKey.ProtocolVersion, 'a string');
    result.protocolVersion = version;
  }
  const capabilities = meta[MetaKey.ClientCapabilities];
  if (capabilities !== undefined) {
    if (!isObject(capabilities)) throw bad(MetaKey.ClientCapabilities, 'an object');
    result.clientCapabilities = capabilities;
  }
  const info = meta[MetaKey.ClientInfo];
  if (info !== undefined) {
    if (!isImplementation(info)) throw bad(MetaKey.ClientInfo, 'an object with name and version');
    result.clientInfo = info;
  }
  const level = meta[MetaKey.LogLevel];
  if (level !== undefined) {
    if (!isLoggingLevel(level)) throw bad(MetaKey.LogLevel, 'a logging level');
    result.logLevel = level;
  }
  return result;
}

/** What a request without `_meta` declares: nothing (shared, as every legacy request has it). */
const NO_META: Readonly<ModernMeta> = Object.freeze({});

/** The InvalidParams error of a `_meta` key with the wrong shape. */
function bad(key: string, what: string): Error {
  return invalidMeta(key, `_meta["${key}"] must be ${what}`);
}

/**
 * The revision a message's `params._meta` names (`io.modelcontextprotocol/protocolVersion`), not
 * checked: what makes a request a 2026-07-28 one. Undefined when `params` or `_meta` is not an
 * object or the key is absent. The one place that reads it (transports route by it, the server
 * serves by it).
 */
export function metaProtocolVersion(params: unknown): unknown {
  if (typeof params !== 'object' || params === null) return undefined;
  const meta = (params as Record<string, unknown>)['_meta'];
  if (typeof meta !== 'object' || meta === null) return undefined;
  return (meta as Record<string, unknown>)[MetaKey.ProtocolVersion];
}

/**
 * The modern revision a request speaks, checked against the revisions the server `supported`.
 * Throws an UnsupportedProtocolVersion (-32022) JsonRpcError when the request names no revision,
 * names one the server does not support, or names a legacy one (legacy revisions are reached
 * through `initialize`). Its data is `{ supported, requested }`: every supported revision, newest
 * first, so the client can retry with one (a legacy one through `initialize`), and the requested
 * string (`""` when none was given, since the schema requires a string).
 */
export function requireModernRevision(
  meta: ModernMeta,
  supported: readonly ProtocolRevision[] = PROTOCOL_REVISIONS,
): ModernRevision {
  const requested = meta.protocolVersion;
  // A loop, not filter + find: this runs on every 2026-07-28 request.
  for (const revision of supported) {
    if (revision === requested && isModern(revision)) return revision;
  }
  throw unsupportedProtocolVersion(requested ?? '', newestFirst(supported));
}

/**
 * True when a result is final: its `resultType` is `"complete"`, or absent (results from legacy
 * revisions have none, and the spec says to treat that as complete). False for
 * `"input_required"` and for anything that is not a result object. Spec 2026-07-28 `Result`.
 */
export function isCompleteResult(result: unknown): boolean {
  if (!isObject(result)) return false;
  const type = result['resultType'];
  return type === undefined || type === 'complete';
}

/** True when a result asks the client for more input first (`resultType: "input_required"`). */
export function isInputRequiredResult(result: unknown): boolean {
  return isObject(result) && result['resultType'] === 'input_required';
}
