// The host side of one MCP App view (io.modelcontextprotocol/ui, 2026-01-26): JSON-RPC over
// postMessage with the sandbox proxy and the view behind it. It hands the proxy the view's HTML,
// answers `ui/initialize`, sends the call's input and result once the view is initialized, passes
// the view's `tools/call` and `resources/read` to the inspector's backend, and shows the person
// what the view asks of them (`ui/message`, `ui/open-link`). Everything it takes or sends is
// logged; what the guard drops is counted and logged too.
import { isRecord } from '../schema';
import type { JsonObject } from '../types';
import type { DropReason } from './guard';
import { MessageGuard } from './guard';

/** The revision of MCP Apps this host speaks. */
export const APPS_PROTOCOL_VERSION = '2026-01-26';

export type DisplayMode = 'inline' | 'fullscreen' | 'pip';

/** What the host offers: `inline`, and `fullscreen` (the view takes the window). */
export const HOST_DISPLAY_MODES: readonly DisplayMode[] = ['inline', 'fullscreen'];

/** What the backend answers a view's request with: passed to the view as it is. */
export type Outcome = { result: unknown } | { error: { code: number; message: string } };

/** Something the person is shown. */
export type Notice =
  | { kind: 'message'; text: string }
  | { kind: 'context'; text: string }
  | { kind: 'log'; level: string; text: string }
  | { kind: 'link'; url: string; decide: (open: boolean) => void }
  | { kind: 'dropped'; reason: DropReason; count: number };

/** What the bridge uses of the page. */
export interface BridgePort {
  /** Sends to the sandbox proxy's window. */
  post(message: JsonObject): void;
  /** Records a message (`>>` from the view, `<<` to it) in the wire log. */
  log(dir: '>>' | '<<', message: JsonObject): void;
  callTool(name: string, args: JsonObject): Promise<Outcome>;
  readResource(uri: string): Promise<Outcome>;
  notice(notice: Notice): void;
  /** The view's content size changed (already capped). */
  resize(size: { width?: number; height?: number }): void;
  /** Switches to `mode`; the page's layout follows. */
  setDisplayMode(mode: DisplayMode): void;
}

/** What the view is rendered from. */
export interface BridgeSetup {
  html: string;
  csp?: Record<string, string[]>;
  permissions?: JsonObject;
  /** The call that opened the view: its arguments and result. */
  input: JsonObject;
  result: JsonObject;
  hostInfo: { name: string; version: string };
  hostContext: JsonObject;
}

/** The tallest a view may make itself, in CSS pixels. */
export const MAX_HEIGHT = 1200;
const MIN_HEIGHT = 40;

/** How long the host waits for the view to answer `ui/resource-teardown`. */
const TEARDOWN_WAIT_MS = 3000;

const METHOD_NOT_FOUND = -32601;
const INVALID_PARAMS = -32602;
const DENIED = -32000;

export class AppBridge {
  readonly #port: BridgePort;
  readonly #setup: BridgeSetup;
  readonly #guard = new MessageGuard();
  #phase: 'proxy' | 'loading' | 'initializing' | 'ready' | 'closed' = 'proxy';
  #mode: DisplayMode = 'inline';
  #appModes: DisplayMode[] | undefined;
  #nextId = 1;
  readonly #pending = new Map<number, (message: JsonObject) => void>();

  constructor(port: BridgePort, setup: BridgeSetup) {
    this.#port = port;
    this.#setup = setup;
  }

  get displayMode(): DisplayMode {
    return this.#mode;
  }

  /** Takes one message from the sandbox window (its origin already checked). */
  receive(data: unknown): void {
    if (this.#phase === 'closed') return;
    const dropped = this.#guard.check(data);
    if (dropped !== undefined) {
      this.#port.notice({ kind: 'dropped', reason: dropped, count: 1 });
      return;
    }
    const message = data as JsonObject;
    this.#port.log('>>', message);
    const method = message['method'];
    const id = message['id'];
    const hasId = typeof id === 'string' || typeof id === 'number';
    if (typeof method !== 'string') {
      if (typeof id === 'number') this.#pending.get(id)?.(message);
      return;
    }
    if (hasId) void this.#answer(id, method, message['params']);
    else this.#notified(method, message['params']);
  }

  /** Sends `ui/resource-teardown` and waits (a while) for the view's answer. */
  async teardown(reason: string): Promise<void> {
    if (this.#phase === 'closed') return;
    if (this.#phase === 'ready' || this.#phase === 'initializing') {
      const id = this.#nextId++;
      const answered = new Promise<void>((resolve) => {
        this.#pending.set(id, () => {
          resolve();
        });
        setTimeout(resolve, TEARDOWN_WAIT_MS);
      });
      this.#send({ jsonrpc: '2.0', id, method: 'ui/resource-teardown', params: { reason } });
      await answered;
      this.#pending.delete(id);
    }
    this.#phase = 'closed';
  }

  /** Leaves a mode the person chose to leave (full screen), telling the view. */
  leaveDisplayMode(): void {
    this.#switchTo('inline');
  }

  #send(message: JsonObject): void {
    this.#port.log('<<', message);
    this.#port.post(message);
  }

  #notified(method: string, params: unknown): void {
    const p = isRecord(params) ? params : {};
    switch (method) {
      case 'ui/notifications/sandbox-proxy-ready':
        if (this.#phase !== 'proxy') return;
        this.#phase = 'loading';
        this.#send({
          jsonrpc: '2.0',
          method: 'ui/notifications/sandbox-resource-ready',
          params: {
            html: this.#setup.html,
            ...(this.#setup.csp === undefined ? {} : { csp: this.#setup.csp }),
            ...(this.#setup.permissions === undefined
              ? {}
              : { permissions: this.#setup.permissions }),
          },
        });
        return;
      case 'ui/notifications/initialized':
        if (this.#phase !== 'initializing') return;
        this.#phase = 'ready';
        this.#send({
          jsonrpc: '2.0',
          method: 'ui/notifications/tool-input',
          params: { arguments: this.#setup.input },
        });
        this.#send({
          jsonrpc: '2.0',
          method: 'ui/notifications/tool-result',
          params: this.#setup.result,
        });
        return;
      case 'ui/notifications/size-changed':
        this.#port.resize(cappedSize(p));
        return;
      case 'notifications/message':
        this.#port.notice({
          kind: 'log',
          level: typeof p['level'] === 'string' ? p['level'] : 'info',
          text: typeof p['data'] === 'string' ? p['data'] : JSON.stringify(p['data']),
        });
        return;
      default:
        return; // Logged already; nothing else to do.
    }
  }

  async #answer(id: string | number, method: string, params: unknown): Promise<void> {
    const p = isRecord(params) ? params : {};
    let outcome: Outcome;
    try {
      outcome = await this.#handle(method, p);
    } catch (error) {
      outcome = { error: { code: -32603, message: String(error) } };
    }
    if (this.#phase === 'closed') return;
    this.#send({ jsonrpc: '2.0', id, ...outcome });
  }

  #handle(method: string, p: JsonObject): Promise<Outcome> | Outcome {
    switch (method) {
      case 'ui/initialize':
        return this.#initialize(p);
      case 'ping':
        return { result: {} };
      case 'tools/call':
        if (typeof p['name'] !== 'string') return invalid('tools/call needs a tool name');
        return this.#port.callTool(p['name'], isRecord(p['arguments']) ? p['arguments'] : {});
      case 'resources/read':
        if (typeof p['uri'] !== 'string') return invalid('resources/read needs a uri');
        return this.#port.readResource(p['uri']);
      case 'ui/message':
        return this.#message(p);
      case 'ui/open-link':
        return this.#openLink(p);
      case 'ui/update-model-context':
        this.#port.notice({ kind: 'context', text: JSON.stringify(p) });
        return { result: {} };
      case 'ui/request-display-mode':
        return { result: { mode: this.#requestMode(p['mode']) } };
      default:
        return { error: { code: METHOD_NOT_FOUND, message: `the host has no ${method}` } };
    }
  }

  #initialize(p: JsonObject): Outcome {
    const caps = isRecord(p['appCapabilities']) ? p['appCapabilities'] : {};
    const modes = caps['availableDisplayModes'];
    if (Array.isArray(modes)) this.#appModes = modes.filter(isDisplayMode);
    if (this.#phase === 'loading' || this.#phase === 'proxy') this.#phase = 'initializing';
    return {
      result: {
        protocolVersion: APPS_PROTOCOL_VERSION,
        hostInfo: this.#setup.hostInfo,
        hostCapabilities: {
          openLinks: {},
          serverTools: {},
          serverResources: {},
          logging: {},
          sandbox: {
            ...(this.#setup.permissions === undefined
              ? {}
              : { permissions: this.#setup.permissions }),
            ...(this.#setup.csp === undefined ? {} : { csp: this.#setup.csp }),
          },
        },
        hostContext: { ...this.#setup.hostContext, displayMode: this.#mode },
      },
    };
  }

  #message(p: JsonObject): Outcome {
    const content = p['content'];
    const blocks = Array.isArray(content) ? content : [content];
    const text = blocks
      .map((b) => (isRecord(b) && typeof b['text'] === 'string' ? b['text'] : JSON.stringify(b)))
      .join('\n');
    this.#port.notice({ kind: 'message', text });
    return { result: {} };
  }

  /** Asks the person; opens nothing by itself. */
  #openLink(p: JsonObject): Promise<Outcome> | Outcome {
    const url = p['url'];
    if (typeof url !== 'string' || !/^https?:\/\//i.test(url)) {
      return { error: { code: DENIED, message: 'Invalid URL' } };
    }
    return new Promise((resolve) => {
      this.#port.notice({
        kind: 'link',
        url,
        decide: (open) => {
          resolve(
            open
              ? { result: {} }
              : { error: { code: DENIED, message: 'Link opening denied by user' } },
          );
        },
      });
    });
  }

  /** The mode the view ends in: the one asked for when both sides have it, else the current. */
  #requestMode(asked: unknown): DisplayMode {
    if (!isDisplayMode(asked) || !HOST_DISPLAY_MODES.includes(asked)) return this.#mode;
    if (this.#appModes !== undefined && !this.#appModes.includes(asked)) return this.#mode;
    this.#switchTo(asked);
    return this.#mode;
  }

  #switchTo(mode: DisplayMode): void {
    if (mode === this.#mode) return;
    this.#mode = mode;
    this.#port.setDisplayMode(mode);
    if (this.#phase === 'ready') {
      this.#send({
        jsonrpc: '2.0',
        method: 'ui/notifications/host-context-changed',
        params: { displayMode: mode },
      });
    }
  }
}

function invalid(message: string): Outcome {
  return { error: { code: INVALID_PARAMS, message } };
}

function isDisplayMode(value: unknown): value is DisplayMode {
  return value === 'inline' || value === 'fullscreen' || value === 'pip';
}

/** A size-changed's height (and width), as numbers within bounds; the rest left out. */
function cappedSize(p: JsonObject): { width?: number; height?: number } {
  const size: { width?: number; height?: number } = {};
  const { height, width } = p;
  if (typeof height === 'number' && Number.isFinite(height)) {
    size.height = Math.round(Math.min(MAX_HEIGHT, Math.max(MIN_HEIGHT, height)));
  }
  if (typeof width === 'number' && Number.isFinite(width) && width > 0) {
    size.width = Math.round(width);
  }
  return size;
}
