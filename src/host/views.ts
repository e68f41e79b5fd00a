// MCP Apps views on the host's call records: the `ui://` resource a called tool links to
// (`_meta.ui.resourceUri`), read through `resources/read` once per URI and connection, and
// bounded in size (the server is a peer the host does not trust). The host renders nothing: an
// embedding UI takes the view from the call record (or the `tool_result` event) and renders it.
import type { Client } from '../client/index.js';
import { APPS_EXTENSION, APP_MIME_TYPE } from '../catalogue/index.js';
import { isObject } from '../internal/json.js';
import { messageOf } from '../internal/message-of.js';
import type * as Spec from '../protocol/schema/2026-07-28.js';

/** The largest view kept on a call record, in bytes of HTML (2 MiB). */
export const DEFAULT_VIEW_BYTES: number = 2 * 1024 * 1024;

/** What a host that renders views declares to its servers (every revision carries it). */
export const APPS_CAPABILITIES: Spec.ClientCapabilities = {
  extensions: { [APPS_EXTENSION]: { mimeTypes: [APP_MIME_TYPE] } },
};

/** The most bytes of a view read onto call records, of the host's `views` option; undefined: off. */
export function viewBytes(
  views: boolean | { readonly maxBytes?: number } | undefined,
): number | undefined {
  if (views === undefined || views === false) return undefined;
  return views === true ? DEFAULT_VIEW_BYTES : (views.maxBytes ?? DEFAULT_VIEW_BYTES);
}

/**
 * A called tool's view. Read: `html` (the document) and `meta` (the contents' `_meta.ui`: csp,
 * permissions, domain, prefersBorder, as the server gave them; `{}` when it gave none). Left
 * out (too big, not an App, unreadable): `note` says why, and there is no `html`.
 */
export interface CallView {
  /** The tool's `ui://` URI, as its server names it. */
  readonly uri: string;
  readonly html?: string;
  readonly meta?: Readonly<Record<string, unknown>>;
  readonly note?: string;
}

/** The views read over one connection, by URI: each read once (a failed read is tried again). */
export class ViewCache {
  readonly #client: Client;
  readonly #maxBytes: number;
  readonly #views = new Map<string, Promise<CallView>>();

  constructor(client: Client, maxBytes: number) {
    this.#client = client;
    this.#maxBytes = maxBytes;
  }

  /** The view at `uri`; never rejects (a failure is a view with a note). */
  view(uri: string, signal: AbortSignal | undefined): Promise<CallView> {
    let view = this.#views.get(uri);
    if (view === undefined) {
      view = this.#read(uri, signal).catch((error: unknown) => {
        this.#views.delete(uri);
        return { uri, note: `the view could not be read: ${messageOf(error)}` };
      });
      this.#views.set(uri, view);
    }
    return view;
  }

  async #read(uri: string, signal: AbortSignal | undefined): Promise<CallView> {
    const result = await this.#client.readResource(uri, signal === undefined ? {} : { signal });
    const contents = result.contents as unknown as readonly Record<string, unknown>[];
    const content = contents.find((item) => item['uri'] === uri) ?? contents[0];
    if (content === undefined) return { uri, note: 'the server read the view as no contents' };
    return viewOf(uri, content, this.#maxBytes);
  }
}

/** The view in `content` (one item of a resources/read answer), or why it is left out. */
export function viewOf(
  uri: string,
  content: Readonly<Record<string, unknown>>,
  maxBytes: number,
): CallView {
  const mimeType = content['mimeType'];
  if (typeof mimeType !== 'string' || !isAppMimeType(mimeType)) {
    return { uri, note: `not an MCP App view (mimeType ${JSON.stringify(mimeType ?? null)})` };
  }
  const { text, blob } = content;
  let bytes: number;
  if (typeof text === 'string') bytes = Buffer.byteLength(text);
  else if (typeof blob === 'string') bytes = Math.floor((blob.length * 3) / 4);
  else return { uri, note: 'the view has neither text nor blob' };
  if (bytes > maxBytes) {
    return {
      uri,
      note: `the view is ${String(bytes)} bytes, above the cap of ${String(maxBytes)}; it was left out`,
    };
  }
  const html = typeof text === 'string' ? text : Buffer.from(blob as string, 'base64').toString();
  const meta = isObject(content['_meta']) ? content['_meta']['ui'] : undefined;
  return { uri, html, meta: isObject(meta) ? meta : {} };
}

/** Whether `mimeType` is the App MIME type (case and spaces around `;` aside). */
function isAppMimeType(mimeType: string): boolean {
  return mimeType.toLowerCase().replace(/\s*;\s*/g, ';') === APP_MIME_TYPE;
}
