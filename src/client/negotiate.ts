// How a client agrees on a revision. `auto` asks `server/discover` in the newest modern revision
// first (Spec 2026-07-28 basic/versioning) and falls back to the legacy `initialize` handshake
// (Spec 2025-11-25 basic/lifecycle) when the server does not speak it; `{ pin }` speaks exactly
// one revision.
import { isObject } from '../internal/json.js';
import { JsonRpcError, LocalError, LocalErrorCode } from '../jsonrpc/errors.js';
import { McpErrorCode } from '../protocol/errors.js';
import type * as Spec from '../protocol/schema/2026-07-28.js';
import type { ProtocolEra, ProtocolRevision } from '../protocol/version.js';
import {
  MetaKey,
  PROTOCOL_REVISIONS,
  acceptServerRevision,
  chooseRevision,
  eraOf,
} from '../protocol/version.js';
import type { Caller, RequestOptions } from './caller.js';
import type { ConnectMode } from './types.js';

/** What negotiation learnt about the server. */
export interface Negotiated {
  era: ProtocolEra;
  revision: ProtocolRevision;
  serverInfo: Spec.Implementation | undefined;
  serverCapabilities: Spec.ServerCapabilities;
  instructions: string | undefined;
}

/** What negotiation needs from its client. */
export interface NegotiateSettings {
  readonly caller: Caller;
  readonly revisions: readonly ProtocolRevision[];
  readonly mode: ConnectMode;
  readonly capabilities: (revision: ProtocolRevision) => Spec.ClientCapabilities;
  readonly info: (revision: ProtocolRevision) => Spec.Implementation;
  readonly options: RequestOptions;
}

type Result = Record<string, unknown>;

/** The newest of `revisions` in `era`, if any. */
function newestIn(
  revisions: readonly ProtocolRevision[],
  era: ProtocolEra,
): ProtocolRevision | undefined {
  return [...PROTOCOL_REVISIONS].reverse().find((r) => revisions.includes(r) && eraOf(r) === era);
}

/** Agrees on a revision with the server; throws a LocalError or the server's error when none fits. */
export async function negotiate(settings: NegotiateSettings): Promise<Negotiated> {
  const { mode, revisions } = settings;
  if (mode !== 'auto') return pinned(settings, mode.pin);
  const modern = newestIn(revisions, 'modern');
  if (modern !== undefined) {
    const agreed = await tryModern(settings, modern);
    if (agreed !== undefined) return agreed;
  }
  const legacy = newestIn(revisions, 'legacy');
  if (legacy === undefined) {
    throw new LocalError(
      LocalErrorCode.Unsupported,
      'the server speaks none of the modern revisions the client supports, and the client speaks no legacy one',
    );
  }
  return initialize(settings, legacy, revisions);
}

async function pinned(settings: NegotiateSettings, pin: ProtocolRevision): Promise<Negotiated> {
  if (eraOf(pin) === 'legacy') return initialize(settings, pin, [pin]);
  const result = await discover(settings, pin);
  const supported = result['supportedVersions'];
  if (Array.isArray(supported) && !supported.includes(pin)) {
    throw new LocalError(LocalErrorCode.Unsupported, `the server does not support revision ${pin}`);
  }
  return modernOutcome(pin, result);
}

/**
 * Asks `server/discover` in `revision`. Undefined means: fall back to legacy (the server does not
 * know the method, refused the request, answered without `supportedVersions`, or lists no
 * modern revision both sides support).
 */
async function tryModern(
  settings: NegotiateSettings,
  first: ProtocolRevision,
): Promise<Negotiated | undefined> {
  const modern = settings.revisions.filter((r) => eraOf(r) === 'modern');
  let revision = first;
  // At most one switch per modern revision, so a confused server cannot loop us.
  for (let attempt = 0; attempt <= modern.length; attempt++) {
    let result: Result;
    try {
      result = await discover(settings, revision);
    } catch (error) {
      if (!(error instanceof JsonRpcError)) throw error;
      const next =
        error.code === McpErrorCode.UnsupportedProtocolVersion
          ? retryRevision(error, modern)
          : undefined;
      // The same revision is retried too: the spec says to choose from `supported` and retry,
      // and the loop's bound keeps a server that always refuses from looping us.
      if (next === undefined) return undefined;
      revision = next;
      continue;
    }
    const choice = chooseRevision(result['supportedVersions'], modern);
    if (choice === undefined) return undefined;
    if (choice === revision) return modernOutcome(revision, result);
    revision = choice;
  }
  return undefined;
}

/** The modern revision to retry with after -32022, from `data.supported`. */
function retryRevision(
  error: JsonRpcError,
  modern: readonly ProtocolRevision[],
): ProtocolRevision | undefined {
  const supported = isObject(error.data) ? error.data['supported'] : undefined;
  return chooseRevision(supported, modern);
}

function discover(settings: NegotiateSettings, revision: ProtocolRevision): Promise<Result> {
  settings.caller.speak(revision);
  return settings.caller.request('server/discover', {}, settings.options);
}

function modernOutcome(revision: ProtocolRevision, result: Result): Negotiated {
  const meta = result['_meta'];
  const info = isObject(meta) ? meta[MetaKey.ServerInfo] : undefined;
  return {
    era: 'modern',
    revision,
    serverInfo: isObject(info) ? (info as unknown as Spec.Implementation) : undefined,
    serverCapabilities: capabilitiesOf(result),
    instructions: typeof result['instructions'] === 'string' ? result['instructions'] : undefined,
  };
}

/**
 * The legacy handshake: `initialize` in `revision`, the server's answer accepted only when it
 * is one of `accepted`, then `notifications/initialized`.
 */
async function initialize(
  settings: NegotiateSettings,
  revision: ProtocolRevision,
  accepted: readonly ProtocolRevision[],
): Promise<Negotiated> {
  const { caller } = settings;
  caller.speak(revision);
  const result = await caller.request(
    'initialize',
    {
      protocolVersion: revision,
      capabilities: settings.capabilities(revision),
      clientInfo: settings.info(revision),
    },
    settings.options,
  );
  const agreed = acceptServerRevision(result['protocolVersion'], accepted);
  caller.speak(agreed);
  await caller.notify('notifications/initialized');
  const info = result['serverInfo'];
  return {
    era: 'legacy',
    revision: agreed,
    serverInfo: isObject(info) ? (info as unknown as Spec.Implementation) : undefined,
    serverCapabilities: capabilitiesOf(result),
    instructions: typeof result['instructions'] === 'string' ? result['instructions'] : undefined,
  };
}

function capabilitiesOf(result: Result): Spec.ServerCapabilities {
  const capabilities = result['capabilities'];
  return isObject(capabilities) ? capabilities : {};
}
