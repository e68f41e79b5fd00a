// The server side of MCP Apps: `apps()` is a ServerExtension through which a server declares its
// views (each a `ui://` resource of type text/html;profile=mcp-app whose contents carry
// `_meta.ui`) and links tools to them (`view.link()` gives a tool's `_meta`). For a client that
// does not declare the extension, the server stays a text server: app-only tools are left out of
// its tools/list and refused as unknown when it calls them (the model side, SEP-1865 Visibility).
import type {
  ExtensionCapability,
  ExtensionHost,
  RequestMiddleware,
  ServerExtension,
} from '../../server/index.js';
import { JsonRpcError } from '../../server/index.js';
import { ErrorCode } from '../../jsonrpc/index.js';
import type { AppCsp, AppPermissions, ToolUi, ViewMeta, Visibility } from './protocol.js';
import { APPS_EXTENSION, APP_MIME_TYPE, declaresApps, modelVisible } from './protocol.js';

/** Where a view's HTML comes from: the text, a file read on first use, or a built script. */
export type ViewSource =
  | string
  | { readonly file: string }
  | { readonly bundle: string; readonly title?: string }
  | (() => string | Promise<string>);

/** A view's definition, for {@link AppsExtension.view}. */
export interface ViewDefinition {
  /** Its `ui://` URI. */
  readonly uri: string;
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  /**
   * Its HTML: a string; `{ file }`, an HTML file read once, on first read; `{ bundle }`, a built
   * script file (ESM) wrapped into an HTML document; or a function called on each read.
   */
  readonly html: ViewSource;
  /** The origins it may reach; the restrictive default when omitted. */
  readonly csp?: AppCsp;
  readonly permissions?: AppPermissions;
  readonly domain?: string;
  readonly prefersBorder?: boolean;
}

/** A declared view: what links a tool to it. */
export interface AppView {
  readonly uri: string;
  /**
   * A tool's `_meta` that links it to this view (`ui.resourceUri`), with its visibility:
   * `['model', 'app']` (the default) or `['app']` for a tool only the view calls. Spread it into
   * the tool's definition (`_meta: view.link()`).
   */
  link(options?: { readonly visibility?: readonly Visibility[] }): { ui: ToolUi };
}

/** The Apps extension of one server: add it with `server.extend(...)`, then declare views. */
export interface AppsExtension extends ServerExtension {
  /** Declares a view (registered as a resource once the extension is added). TypeError on a bad one. */
  view(definition: ViewDefinition): AppView;
}

/** Makes the MCP Apps extension for one server. */
export function apps(): AppsExtension {
  const views = new Map<string, ViewDefinition>();
  let host: ExtensionHost | undefined;
  const publish = (view: ViewDefinition): void => {
    host?.resource(
      { uri: view.uri, name: view.name, mimeType: APP_MIME_TYPE, ...describe(view) },
      async () => ({ contents: [await contentsOf(view)] }),
    );
  };
  return {
    id: APPS_EXTENSION,
    capabilities: (revision): ExtensionCapability | undefined =>
      views.size > 0 && revision === '2026-07-28' ? { settings: {} } : undefined,
    request: textOnly(() => host?.tools() ?? []),
    setup(given) {
      if (host !== undefined) throw new TypeError('an apps() extension serves one server');
      host = given;
      for (const view of views.values()) publish(view);
    },
    view(definition) {
      checkView(definition, views);
      // Registered first: a URI the server has already throws, and the view is not declared.
      publish(definition);
      views.set(definition.uri, definition);
      host?.capabilitiesChanged();
      return {
        uri: definition.uri,
        link: (options = {}) => linkTo(definition.uri, options.visibility),
      };
    },
  };
}

function checkView(view: ViewDefinition, views: ReadonlyMap<string, ViewDefinition>): void {
  const given: unknown = view;
  if (typeof given !== 'object' || given === null) throw new TypeError('a view is an object');
  if (typeof view.uri !== 'string' || !/^ui:\/\/[^\s]+$/.test(view.uri)) {
    throw new TypeError(`a view's uri must be a ui:// URI, got ${JSON.stringify(view.uri)}`);
  }
  if (typeof view.name !== 'string' || view.name === '') {
    throw new TypeError(`view ${view.uri} needs a name`);
  }
  if (views.has(view.uri)) throw new TypeError(`view ${view.uri} is declared already`);
  const html: unknown = view.html;
  const ok =
    typeof html === 'string' ||
    typeof html === 'function' ||
    (typeof html === 'object' && html !== null && ('file' in html || 'bundle' in html));
  if (!ok)
    throw new TypeError(`view ${view.uri}: html is a string, { file }, { bundle } or a function`);
}

/** The listed fields of a view's resource beyond uri, name and type. */
function describe(view: ViewDefinition): { title?: string; description?: string } {
  return {
    ...(view.title !== undefined && { title: view.title }),
    ...(view.description !== undefined && { description: view.description }),
  };
}

/** A view's `_meta.ui`, with only the fields it declares. */
function metaOf(view: ViewDefinition): ViewMeta {
  return {
    ...(view.csp !== undefined && { csp: view.csp }),
    ...(view.permissions !== undefined && { permissions: view.permissions }),
    ...(view.domain !== undefined && { domain: view.domain }),
    ...(view.prefersBorder !== undefined && { prefersBorder: view.prefersBorder }),
  };
}

/** The resources/read contents of a view. */
async function contentsOf(
  view: ViewDefinition,
): Promise<{ uri: string; mimeType: string; text: string; _meta: { ui: ViewMeta } }> {
  return {
    uri: view.uri,
    mimeType: APP_MIME_TYPE,
    text: await htmlOf(view),
    _meta: { ui: metaOf(view) },
  };
}

const files = new Map<string, Promise<string>>();

async function htmlOf(view: ViewDefinition): Promise<string> {
  const source = view.html;
  if (typeof source === 'string') return source;
  if (typeof source === 'function') return await source();
  if ('file' in source) return await readOnce(source.file);
  const script = (await readOnce(source.bundle)).replaceAll('</script', '<\\/script');
  const title = escapeHtml(source.title ?? view.title ?? view.name);
  return `<!doctype html><html><head><meta charset="utf-8"><title>${title}</title></head><body><script type="module">${script}</script></body></html>`;
}

function readOnce(path: string): Promise<string> {
  let text = files.get(path);
  if (text === undefined) {
    text = import('node:fs/promises').then((fs) => fs.readFile(path, 'utf8'));
    text.catch(() => files.delete(path));
    files.set(path, text);
  }
  return text;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"]/g, (c) => `&#${String(c.charCodeAt(0))};`);
}

function linkTo(uri: string, visibility: readonly Visibility[] | undefined): { ui: ToolUi } {
  if (visibility === undefined) return { ui: { resourceUri: uri } };
  // Checked at run time too: JavaScript callers pass anything.
  const given: readonly unknown[] = visibility;
  const known = given.filter((v): v is Visibility => v === 'model' || v === 'app');
  if (known.length === 0 || known.length !== given.length) {
    throw new TypeError('visibility is a non-empty list of "model" and "app"');
  }
  return { ui: { resourceUri: uri, visibility: known } };
}

/** The names of the app-only tools of a listing, kept until the listing changes. */
class AppOnlyTools {
  #listing: readonly object[] | undefined;
  #names: ReadonlySet<string> = new Set();

  names(listing: readonly object[]): ReadonlySet<string> {
    if (listing !== this.#listing) {
      this.#listing = listing;
      this.#names = new Set(
        listing
          .filter((tool) => !modelVisible(tool))
          .map((tool) => (tool as { name: string }).name),
      );
    }
    return this.#names;
  }
}

/**
 * The request middleware that keeps the server a text server for a client without the
 * extension: app-only tools are left out of its tools/list and its tools/call of one is answered
 * as for an unknown tool. A client that declares the extension passes at the cost of one check.
 */
function textOnly(listing: () => readonly object[]): RequestMiddleware {
  const appOnly = new AppOnlyTools();
  return (ctx, next) => {
    if (ctx.method !== 'tools/list' && ctx.method !== 'tools/call') return next();
    if (declaresApps(ctx.client?.capabilities)) return next();
    const names = appOnly.names(listing());
    if (names.size === 0) return next();
    if (ctx.method === 'tools/call') {
      const name = ctx.params['name'];
      if (typeof name === 'string' && names.has(name)) throw unknownTool(name);
      return next();
    }
    const listed = next();
    return listed instanceof Promise
      ? listed.then((result) => withoutTools(result, names))
      : withoutTools(listed, names);
  };
}

/** A tools/list result without the tools named. */
function withoutTools(result: unknown, names: ReadonlySet<string>): unknown {
  const tools = (result as { tools?: unknown }).tools;
  if (!Array.isArray(tools)) return result;
  const kept = tools.filter((tool: { name?: unknown }) => !names.has(String(tool.name)));
  return kept.length === tools.length ? result : { ...(result as object), tools: kept };
}

function unknownTool(name: string): JsonRpcError {
  return new JsonRpcError(ErrorCode.InvalidParams, `unknown tool ${JSON.stringify(name)}`);
}
