// Hot reload: what changed between two configs (planReload), and a config file watched for
// changes (and SIGHUP) whose new content a gateway takes without dropping a downstream session
// (watchConfig). A config that does not parse is refused with the reason; the old one keeps
// serving.
import { watch } from 'node:fs';
import type { FSWatcher } from 'node:fs';
import { basename, dirname } from 'node:path';
import process from 'node:process';
import type { ServerConfig } from '../catalogue/index.js';
import type { GatewayConfig } from './config.js';
import { messageOf } from '../internal/message-of.js';

/** The upstreams a reload added, removed, changed (replaced) and kept, by name; what else changed. */
export interface ReloadSummary {
  readonly added: readonly string[];
  readonly removed: readonly string[];
  readonly changed: readonly string[];
  readonly kept: readonly string[];
  /** Present when the reload changed the policies (in force from the next request on). */
  readonly policies?: 'changed';
  /** Present when the reload added, removed or changed named endpoints: their names. */
  readonly endpoints?: {
    readonly added: readonly string[];
    readonly removed: readonly string[];
    readonly changed: readonly string[];
  };
  /** Present when the config's `identity` changed. */
  readonly identity?: 'changed';
  /** Present when the config's `audit` changed. */
  readonly audit?: 'changed';
}

/**
 * What going from config `from` to `to` does: an upstream whose entry (or list caps, or
 * credentials) differ is changed, and is reconnected (curation and rate limits need no
 * reconnection); a named endpoint whose servers, curation or budget differ is changed; the
 * policies, identity and audit parts are named when they differ.
 */
export function planReload(from: GatewayConfig, to: GatewayConfig): ReloadSummary {
  const added: string[] = [];
  const changed: string[] = [];
  const kept: string[] = [];
  for (const [name, server] of Object.entries(to.servers)) {
    const before = from.servers[name];
    if (before === undefined) added.push(name);
    else if (
      !sameServer(before, server) ||
      JSON.stringify(from.limits?.[name] ?? {}) !== JSON.stringify(to.limits?.[name] ?? {}) ||
      JSON.stringify(from.credentials?.[name]) !== JSON.stringify(to.credentials?.[name])
    ) {
      changed.push(name);
    } else kept.push(name);
  }
  const removed = Object.keys(from.servers).filter((name) => to.servers[name] === undefined);
  const differs = (part: 'policies' | 'identity' | 'audit') =>
    JSON.stringify(from[part]) !== JSON.stringify(to[part]);
  const endpoints = planEndpoints(from.endpoints ?? {}, to.endpoints ?? {});
  return {
    added,
    removed,
    changed,
    kept,
    ...(differs('policies') ? { policies: 'changed' as const } : {}),
    ...(endpoints === undefined ? {} : { endpoints }),
    ...(differs('identity') ? { identity: 'changed' as const } : {}),
    ...(differs('audit') ? { audit: 'changed' as const } : {}),
  };
}

/** The named endpoints added, removed and changed; undefined when none is. */
function planEndpoints(
  from: Readonly<Record<string, unknown>>,
  to: Readonly<Record<string, unknown>>,
): ReloadSummary['endpoints'] {
  const added = Object.keys(to).filter((name) => from[name] === undefined);
  const removed = Object.keys(from).filter((name) => to[name] === undefined);
  const changed = Object.keys(to).filter(
    (name) => from[name] !== undefined && JSON.stringify(from[name]) !== JSON.stringify(to[name]),
  );
  return added.length + removed.length + changed.length === 0
    ? undefined
    : { added, removed, changed };
}

function sameServer(a: ServerConfig, b: ServerConfig): boolean {
  if ('transport' in a || 'transport' in b) return a === b;
  return JSON.stringify(a) === JSON.stringify(b);
}

/** What {@link watchConfig} needs: how to read the file, and what to do with a new config. */
export interface WatchConfigOptions {
  /** Reads and parses the file; throws an Error whose message says what is wrong. */
  readonly load: () => GatewayConfig;
  /** Applies a config that parsed (Gateway.reload). */
  readonly apply: (config: GatewayConfig) => Promise<ReloadSummary>;
  /** Told of each reload: applied (with its summary), or refused (with the reason). */
  readonly onEvent: (event: Record<string, unknown>) => void;
  /** Reload on SIGHUP too. Default true. */
  readonly sighup?: boolean;
  /** How long changes settle before the file is read, in milliseconds. Default 200. */
  readonly settleMs?: number;
}

/** A watch of a config file; `reload()` reloads now (what a change or SIGHUP does). */
export interface ConfigWatch {
  /** Reads and applies the file now; resolves once done (refusals are events, not rejections). */
  reload(): Promise<void>;
  /** Stops watching. Idempotent. */
  close(): void;
}

/**
 * Watches `file` (its directory, so that an editor's replace-by-rename is seen) and SIGHUP:
 * each change, once settled, is read and applied; one reload at a time, and a change during one
 * makes one more after it. An unreadable or invalid file is refused with an event
 * (`reload-refused`, its reason), the config in force unchanged.
 */
export function watchConfig(file: string, options: WatchConfigOptions): ConfigWatch {
  const settleMs = options.settleMs ?? 200;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let running: Promise<void> | undefined;
  // Flags read after awaits (an object, so that they are not narrowed).
  const state = { again: false, closed: false };
  const once = async (reason: string) => {
    let config: GatewayConfig;
    try {
      config = options.load();
    } catch (error) {
      options.onEvent({ event: 'reload-refused', reason, error: messageOf(error) });
      return;
    }
    try {
      const summary = await options.apply(config);
      options.onEvent({ event: 'reloaded', reason, ...summary });
    } catch (error) {
      options.onEvent({ event: 'reload-refused', reason, error: messageOf(error) });
    }
  };
  const reload = (reason: string): Promise<void> => {
    if (state.closed) return Promise.resolve();
    if (running !== undefined) {
      state.again = true;
      return running;
    }
    running = (async () => {
      do {
        state.again = false;
        await once(reason);
        // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- set meanwhile
      } while (state.again && !state.closed);
      running = undefined;
    })();
    return running;
  };
  const name = basename(file);
  let watcher: FSWatcher | undefined;
  try {
    watcher = watch(dirname(file), { persistent: false }, (_event, changed: string | null) => {
      // Some platforms do not say which file changed: then any change may be ours.
      if (changed !== null && changed !== name) return;
      clearTimeout(timer);
      timer = setTimeout(() => void reload('file changed'), settleMs);
      timer.unref();
    });
    watcher.on('error', (error) => {
      options.onEvent({ event: 'watch-failed', error: messageOf(error) });
    });
  } catch (error) {
    options.onEvent({ event: 'watch-failed', error: messageOf(error) });
  }
  const hangup = () => void reload('SIGHUP');
  const sighup = options.sighup !== false && process.platform !== 'win32';
  if (sighup) process.on('SIGHUP', hangup);
  return {
    reload: () => reload('asked'),
    close() {
      state.closed = true;
      clearTimeout(timer);
      watcher?.close();
      if (sighup) process.off('SIGHUP', hangup);
    },
  };
}

/** How {@link applyReload} makes and swaps a gateway's upstreams. */
export interface ReloadSteps<TUpstream> {
  /** The gateway's upstreams by name: changed in place. */
  readonly upstreams: Map<string, TUpstream>;
  /** Makes the upstream of `name` as the new config has it (not yet started). */
  readonly make: (name: string) => TUpstream;
  /** Called once the new upstreams are in the map: the gateway takes the rest of the config and resyncs. */
  readonly swap: () => void;
}

/**
 * Takes a gateway's `upstreams` through `plan` (hot reload), without dropping a downstream
 * session: added upstreams are started, changed ones (their entry or caps differ) replaced by a
 * new connection made before the old one closes, removed ones closed (their calls in flight
 * fail). `swap` runs once the new ones' first attempts are over (as Gateway.start waits), then
 * the old ones are closed. Never rejects for an upstream's failure.
 */
export async function applyReload<
  TUpstream extends { start(): Promise<void>; close(): Promise<void> },
>(plan: ReloadSummary, steps: ReloadSteps<TUpstream>): Promise<void> {
  const { upstreams } = steps;
  const fresh = new Map<string, TUpstream>();
  for (const name of [...plan.added, ...plan.changed]) fresh.set(name, steps.make(name));
  await Promise.all([...fresh.values()].map((upstream) => upstream.start()));
  const old = [...plan.removed, ...plan.changed].flatMap((name) => {
    const upstream = upstreams.get(name);
    return upstream === undefined ? [] : [upstream];
  });
  for (const name of plan.removed) upstreams.delete(name);
  for (const [name, upstream] of fresh) upstreams.set(name, upstream);
  steps.swap();
  await Promise.all(old.map((upstream) => upstream.close()));
}
