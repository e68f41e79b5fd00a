// MCP Apps (io.modelcontextprotocol/ui, SEP-1865, stable 2026-01-26): the extension's identifier,
// the wire shape of a view's metadata and of a tool's link to its view, and the pure helpers both
// sides need: reading a tool's link (the deprecated flat key too), whether a client declares the
// extension (csp.ts builds the Content-Security-Policy a host applies). No I/O.

import type { ToolAudience } from '../../catalogue/index.js';
import { isModelVisible, toolVisibility, uiResourceUri } from '../../catalogue/index.js';

// The readers of a listed tool's `_meta.ui` are the catalogue's (the host and the gateway read
// tools through them): one reading of what a server says, whoever reads it.
export { APPS_EXTENSION, APP_MIME_TYPE, declaresApps } from '../../catalogue/index.js';

/** The URI scheme of views. */
export const VIEW_SCHEME = 'ui:';

/** The revision of the Apps protocol between a host and a view (`ui/initialize`). */
export const APPS_PROTOCOL_VERSION = '2026-01-26';

/** Who may call a tool: the model (the agent), the view (the app), or both (the default). */
export type Visibility = ToolAudience;

/** The origins a view may reach, each a CSP directive's sources (`https://*.example.com`). */
export interface AppCsp {
  /** fetch/XHR/WebSocket (`connect-src`); none when omitted. */
  readonly connectDomains?: readonly string[];
  /** scripts, styles, images, fonts, media; none beyond the view itself when omitted. */
  readonly resourceDomains?: readonly string[];
  /** nested iframes (`frame-src`); `'none'` when omitted. */
  readonly frameDomains?: readonly string[];
  /** `base-uri`; `'self'` when omitted. */
  readonly baseUriDomains?: readonly string[];
}

/** Browser capabilities a view asks for (a host may grant them through the iframe's `allow`). */
export interface AppPermissions {
  readonly camera?: Record<string, never>;
  readonly microphone?: Record<string, never>;
  readonly geolocation?: Record<string, never>;
  readonly clipboardWrite?: Record<string, never>;
}

/** A view's `_meta.ui`: in its resources/read contents (and its listing). */
export interface ViewMeta {
  readonly csp?: AppCsp;
  readonly permissions?: AppPermissions;
  /** A dedicated sandbox origin; its format is the host's (SEP-1865 "domain"). */
  readonly domain?: string;
  /** True: the host draws a border and background; false: none; omitted: the host decides. */
  readonly prefersBorder?: boolean;
}

/** A tool's `_meta.ui`: the view that renders its results, and who may call it. */
export interface ToolUi {
  readonly resourceUri?: string;
  /** Default `['model', 'app']`. */
  readonly visibility?: readonly Visibility[];
}

/** The extension's settings a client (a host) declares. */
export interface AppsClientSettings {
  /** The content types it renders: `['text/html;profile=mcp-app']`. */
  readonly mimeTypes: readonly string[];
}

/**
 * A tool's link to its view, read from a listed tool's `_meta`: `ui.resourceUri` (or the
 * deprecated flat `ui/resourceUri`) when it is a `ui://` URI, and its visibility (`['model',
 * 'app']` when it has none; the known entries of a list).
 */
export function toolUi(tool: { readonly _meta?: Readonly<Record<string, unknown>> | undefined }): {
  resourceUri: string | undefined;
  visibility: readonly Visibility[];
} {
  return { resourceUri: uiResourceUri(tool), visibility: toolVisibility(tool) };
}

/** True when the model may see and call `tool` (its visibility includes `model`). */
export const modelVisible: (tool: {
  readonly _meta?: Readonly<Record<string, unknown>> | undefined;
}) => boolean = isModelVisible;
