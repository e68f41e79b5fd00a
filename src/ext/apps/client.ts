// The client side of MCP Apps: `appsClient()` declares the extension (the HTML view type) to the
// servers a client connects to, in every revision, and reads a tool's view for a host that renders
// it: the `ui://` resource its listing names, checked (type, size) and read once per connection.
// What a view's HTML then does is the host's to contain (sandbox, CSP: `viewCsp`).
import type { CallOptions, ClientExtension, ClientExtensionHost } from '../../client/index.js';
import { LocalError, LocalErrorCode } from '../../client/index.js';
import type { ViewMeta } from './protocol.js';
import { viewCsp } from './csp.js';
import { APPS_EXTENSION, APP_MIME_TYPE, toolUi } from './protocol.js';

/** A tool's view, read and checked. */
export interface LoadedView {
  readonly uri: string;
  /** The view's HTML document. */
  readonly html: string;
  /** Its `_meta.ui` (csp, permissions, domain, prefersBorder), as the server sent it. */
  readonly meta: ViewMeta;
  /** The Content-Security-Policy to load it under (`viewCsp(meta.csp)`). */
  readonly csp: string;
}

/** What `client.extend(appsClient())` gives. */
export interface AppsApi {
  /**
   * The view of `tool` (a listed tool, whose `_meta.ui.resourceUri` names it), read with
   * resources/read once per connection; undefined for a tool without one. Rejects with
   * LocalError('PROTOCOL_VIOLATION') when the resource is not an HTML view or is larger than
   * `maxViewBytes`.
   */
  view(
    tool: { readonly _meta?: Readonly<Record<string, unknown>> | undefined },
    options?: CallOptions,
  ): Promise<LoadedView | undefined>;
}

/** Makes the client side of MCP Apps. `maxViewBytes`: largest view accepted (default 2 MiB). */
export function appsClient(options: { maxViewBytes?: number } = {}): ClientExtension<AppsApi> {
  const max = options.maxViewBytes ?? 2 * 1024 * 1024;
  if (!(max > 0)) throw new TypeError('maxViewBytes must be a positive number');
  return {
    id: APPS_EXTENSION,
    settings: { mimeTypes: [APP_MIME_TYPE] },
    bind: (host) => {
      const read = new WeakMap<object, Map<string, Promise<LoadedView>>>();
      return {
        view(tool, callOptions) {
          const uri = toolUi(tool).resourceUri;
          if (uri === undefined) return Promise.resolve(undefined);
          let views = read.get(host.connection);
          if (views === undefined) {
            views = new Map<string, Promise<LoadedView>>();
            read.set(host.connection, views);
          }
          let view = views.get(uri);
          if (view === undefined) {
            view = loadView(host, { uri, max }, callOptions);
            const forget = views;
            view.catch(() => forget.delete(uri));
            views.set(uri, view);
          }
          return view;
        },
      };
    },
  };
}

async function loadView(
  host: ClientExtensionHost,
  { uri, max }: { uri: string; max: number },
  options: CallOptions | undefined,
): Promise<LoadedView> {
  const result = await host.request('resources/read', { uri }, options);
  const contents = Array.isArray(result['contents']) ? (result['contents'] as unknown[]) : [];
  const first = contents[0] as Record<string, unknown> | undefined;
  if (first === undefined) throw violation(`${uri}: resources/read returned no contents`);
  if (first['mimeType'] !== APP_MIME_TYPE) {
    throw violation(`${uri}: a view must be ${APP_MIME_TYPE}, got ${String(first['mimeType'])}`);
  }
  const html = textOf(first, uri, max);
  const ui = (first['_meta'] as { ui?: unknown } | undefined)?.ui;
  const meta = (typeof ui === 'object' && ui !== null ? ui : {}) as ViewMeta;
  return { uri, html, meta, csp: viewCsp(meta.csp) };
}

function textOf(content: Record<string, unknown>, uri: string, max: number): string {
  const { text, blob } = content;
  if (typeof text === 'string') {
    if (text.length > max) throw violation(`${uri}: the view is larger than ${String(max)} bytes`);
    return text;
  }
  if (typeof blob !== 'string') throw violation(`${uri}: the view has neither text nor blob`);
  if (blob.length > Math.ceil(max / 3) * 4) {
    throw violation(`${uri}: the view is larger than ${String(max)} bytes`);
  }
  const bytes = Uint8Array.from(atob(blob), (c) => c.charCodeAt(0));
  return new TextDecoder().decode(bytes);
}

function violation(message: string): LocalError {
  return new LocalError(LocalErrorCode.ProtocolViolation, message);
}
