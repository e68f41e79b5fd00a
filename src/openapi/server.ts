// An OpenAPI document served as MCP tools: generation, curation, credentials and calling wired
// to an McpServer. Over a token budget (or past the number of tools models choose among
// reliably) the server lists `search_tools` (the catalogue's, as the gateway does) and the tools
// the latest searches found, instead of every tool.
import type { Tokenizer } from '../catalogue/index.js';
import {
  ESTIMATE,
  SEARCH_TOOLS,
  SEARCH_TOOLS_DEFINITION,
  searchTools,
  serializeTool,
} from '../catalogue/index.js';
import type { Tool } from '../client/index.js';
import type { McpServerOptions, RegisteredHandle, ServerInfo } from '../server/index.js';
import { McpServer } from '../server/index.js';
import { compileTargetPolicy, PRIVATE_RANGES } from '../internal/address-policy.js';
import type { Credential } from './auth.js';
import { Authenticator, credentialsFromEnv } from './auth.js';
import { callOperation } from './call.js';
import type { Curation } from './curate.js';
import { applyOverrides, selectOperations } from './curate.js';
import type { Generated, GenerateOptions } from './generate.js';
import { generateTools, operationsOf } from './generate.js';
import type { LoadOptions } from './load.js';
import { loadDocument } from './load.js';
import { SLICE_TEMPLATE, Slices } from './slices.js';
import type { OpenApiDocument, ToolPlan } from './types.js';

/** Options of {@link createOpenApiServer}; every field optional. */
export interface OpenApiOptions extends GenerateOptions, Curation {
  /** The API's base URL. Default: the document's first server (its variables' defaults). */
  readonly baseUrl?: string;
  /** Where the document came from (resolves a relative server URL). */
  readonly documentUrl?: string;
  /** Credentials by security scheme name; the environment's fill the gaps. */
  readonly auth?: Readonly<Record<string, Credential>>;
  /** Headers sent with every request (a token, an API version): never the model's to set. */
  readonly headers?: Readonly<Record<string, string>>;
  /** Read for credentials (`MCPKIT_OPENAPI_AUTH_<SCHEME>`). Default: none. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** How long one call (with its redirects) may take, in ms. Default 30000. */
  readonly timeoutMs?: number;
  /** Most bytes of one response read. Default 5 MiB. */
  readonly maxResponseBytes?: number;
  /** Most characters of text in one result. Default 100000 (about 25,000 tokens). */
  readonly maxTextChars?: number;
  /**
   * Where redirects may lead beyond the API's own host: addresses and CIDR ranges (`private`
   * for every private range). Default: `deny: ['private']`.
   */
  readonly targets?: { readonly allow?: readonly string[]; readonly deny?: readonly string[] };
  /**
   * Most tokens the listed tool definitions may cost; above it, `search_tools`. Default 10000;
   * `false` lists every tool whatever they cost and however many they are.
   */
  readonly budget?: number | false;
  /** Most tools listed at once; more, and `search_tools` serves them. Default 40 (lint's limit). */
  readonly maxTools?: number;
  /** Counts tokens for `budget`. Default: 4 characters a token. */
  readonly tokenizer?: Tokenizer;
  /** The server's identity. Default: the document's title and version. */
  readonly info?: ServerInfo;
  /** Options of the McpServer. */
  readonly server?: McpServerOptions;
  /** The fetch of the OAuth client (token requests). Default: the global fetch. */
  readonly fetch?: (url: string, init: RequestInit) => Promise<Response>;
}

/** The default token budget of the listed tool definitions (about 5 % of a 200k context). */
export const DEFAULT_BUDGET = 10_000;
/** The default most tools listed at once (`mcpkit lint`'s `too-many-tools`). */
export const DEFAULT_MAX_TOOLS = 40;
/** In catalogue mode, the most tools searches leave listed (the latest found stay). */
export const MAX_FOUND = 20;

/**
 * Whether `tools` costing `tokens` are served through `search_tools`: above the budget, or more
 * than `maxTools` of them.
 */
export function overBudget(
  options: Pick<OpenApiOptions, 'budget' | 'maxTools'>,
  { tools, tokens }: { tools: number; tokens: number },
): boolean {
  const budget = options.budget ?? DEFAULT_BUDGET;
  if (budget === false) return false;
  return tokens > budget || tools > (options.maxTools ?? DEFAULT_MAX_TOOLS);
}

/** A served API: the server, its tools and what they cost. */
export interface OpenApiServer {
  readonly server: McpServer;
  readonly tools: readonly ToolPlan[];
  readonly skipped: Generated['skipped'];
  readonly baseUrl: URL;
  /** `catalogue` when over budget (search_tools serves the tools). */
  readonly mode: 'all' | 'catalogue';
  /** Tokens of every tool's definition. */
  readonly tokens: number;
}

/** Generates and curates the tools of `document` (no server): what `--check` shows. */
export function planTools(document: OpenApiDocument, options: OpenApiOptions = {}): Generated {
  const operations = selectOperations(operationsOf(document), options);
  const generated = generateTools(document, options, operations);
  return { tools: applyOverrides(generated.tools, options.tools), skipped: generated.skipped };
}

/** The base URL: the option, else the document's first server with its variables' defaults. */
export function baseUrlOf(document: OpenApiDocument, options: OpenApiOptions): URL {
  if (options.baseUrl !== undefined) return new URL(options.baseUrl);
  const server = document.servers?.[0];
  if (server === undefined) {
    throw new TypeError('the document names no server: give the base URL (--base-url)');
  }
  const url = server.url.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const variable = server.variables?.[name];
    return variable === undefined ? `{${name}}` : variable.default;
  });
  try {
    return new URL(url, options.documentUrl);
  } catch {
    throw new TypeError(
      `the document's server "${url}" is not an absolute URL: give the base URL (--base-url)`,
    );
  }
}

/** Serves `document`'s operations as tools of a new McpServer. */
export function createOpenApiServer(
  document: OpenApiDocument,
  options: OpenApiOptions = {},
): OpenApiServer {
  const { tools, skipped } = planTools(document, options);
  const baseUrl = baseUrlOf(document, options);
  const tokenizer = options.tokenizer ?? ESTIMATE;
  const credentials = { ...credentialsFromEnv(document, options.env ?? {}), ...options.auth };
  const maxTextChars = options.maxTextChars ?? 100_000;
  const slices = new Slices(maxTextChars);
  const settings = {
    slices,
    baseUrl,
    auth: new Authenticator(document, credentials, options.fetch),
    headers: options.headers ?? {},
    maxTextChars,
    http: {
      timeoutMs: options.timeoutMs ?? 30_000,
      maxBytes: options.maxResponseBytes ?? 5 * 1024 * 1024,
      maxRedirects: 5,
      targets: compileTargetPolicy({
        allow: options.targets?.allow,
        deny: options.targets?.deny ?? PRIVATE_RANGES,
      }),
    },
  };
  const info = options.info ?? {
    name: document.info?.title ?? 'openapi',
    version: document.info?.version ?? '0.0.0',
  };
  const server = new McpServer(info, options.server);
  const handles = new Map<string, RegisteredHandle<unknown>>();
  let tokens = 0;
  for (const plan of tools) {
    tokens += tokenizer.count(serializeTool(plan as unknown as Tool));
    const handle = server.tool(
      {
        name: plan.name,
        description: plan.description,
        inputSchema: plan.inputSchema,
        ...(plan.outputSchema === undefined ? {} : { outputSchema: plan.outputSchema }),
        annotations: plan.annotations,
      },
      ((args: Record<string, unknown>, ctx: { signal: AbortSignal }) =>
        callOperation(plan, args, { settings, signal: ctx.signal })) as never,
    );
    handles.set(plan.name, handle);
  }
  serveSlices(server, slices);
  const catalogue = overBudget(options, { tools: tools.length, tokens });
  if (catalogue) serveCatalogue(server, tools, handles);
  return { server, tools, skipped, baseUrl, mode: catalogue ? 'catalogue' : 'all', tokens };
}

/** The slices of cut answers, as resources (`openapi-result://<id>/<n>`). */
function serveSlices(server: McpServer, slices: Slices): void {
  server.resourceTemplate(
    {
      uriTemplate: SLICE_TEMPLATE,
      name: 'openapi-result',
      description: 'The rest of an API answer that was cut, one slice at a time.',
      mimeType: 'text/plain',
    },
    (_uri, { id, slice }) => slices.read(String(id), Number(slice)),
  );
}

/**
 * Lists `search_tools` alone; each search enables the tools it found, and the tools found longest
 * ago leave the list past {@link MAX_FOUND} (so the list stays small however long the session).
 */
function serveCatalogue(
  server: McpServer,
  tools: readonly ToolPlan[],
  handles: Map<string, RegisteredHandle<unknown>>,
): void {
  for (const handle of handles.values()) handle.disable();
  const listed = new Set<string>();
  const searchable = tools.map((plan) => ({
    plan,
    name: plan.name,
    server: plan.operation.tags.join(' '),
    description: plan.description,
  }));
  const { description, inputSchema } = SEARCH_TOOLS_DEFINITION;
  server.tool({ name: SEARCH_TOOLS, description, inputSchema }, (args) => {
    const query = typeof args['query'] === 'string' ? args['query'] : '';
    const limit = typeof args['limit'] === 'number' ? args['limit'] : 5;
    const found = searchTools(searchable, query, Math.min(20, Math.max(1, limit)));
    if (found.length === 0) {
      return {
        content: [{ type: 'text', text: `No tool matches "${query}". Try other keywords.` }],
      };
    }
    for (const entry of found) {
      listed.delete(entry.name);
      listed.add(entry.name);
      handles.get(entry.name)?.enable();
    }
    for (const name of [...listed].slice(0, Math.max(0, listed.size - MAX_FOUND))) {
      listed.delete(name);
      handles.get(name)?.disable();
    }
    const definitions = found.map(({ plan }) => ({
      name: plan.name,
      description: plan.description,
      inputSchema: plan.inputSchema,
    }));
    return `These tools are now available to call (tools/list lists them):\n${JSON.stringify(definitions)}`;
  });
}

/** Loads `source` (a path, a URL or a document object) and serves it: {@link loadDocument} then {@link createOpenApiServer}. */
export async function openApiServer(
  source: string | object,
  options: OpenApiOptions & LoadOptions = {},
): Promise<OpenApiServer> {
  const document = await loadDocument(source, options);
  const documentUrl =
    options.documentUrl ??
    (typeof source === 'string' && /^https?:/.test(source) ? source : undefined);
  return createOpenApiServer(document, {
    ...options,
    ...(documentUrl === undefined ? {} : { documentUrl }),
  });
}
