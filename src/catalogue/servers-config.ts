// Servers from a config: the `mcpServers` format hosts use (Claude Desktop, Claude Code, Cursor),
// `command`/`args`/`env`/`cwd` for stdio and `url`/`headers` for Streamable HTTP (which falls
// back to HTTP+SSE for old servers; the client negotiates the era).
import { asObject, stringRecord } from '../internal/json.js';
import type { Transport } from '../jsonrpc/index.js';
import { createStreamableHttpClientTransport } from '../transports/http/index.js';
import { createStdioClientTransport } from '../transports/stdio/index.js';

/** A server run as a child process, spoken to over stdio. */
export interface StdioServerConfig {
  readonly command: string;
  readonly args?: readonly string[];
  /** Added to the default environment. */
  readonly env?: Readonly<Record<string, string>>;
  readonly cwd?: string;
  readonly disabled?: boolean;
  /** Its tool annotations may spare approval prompts (see ApprovalPolicy). Default false. */
  readonly trusted?: boolean;
}

/** A server reached over HTTP. */
export interface HttpServerConfig {
  readonly url: string;
  readonly headers?: Readonly<Record<string, string>>;
  readonly disabled?: boolean;
  /** Its tool annotations may spare approval prompts (see ApprovalPolicy). Default false. */
  readonly trusted?: boolean;
}

/** A server given its transport directly (in-process servers, tests). */
export interface TransportServerConfig {
  readonly transport: () => Transport | Promise<Transport>;
  readonly disabled?: boolean;
  /** Its tool annotations may spare approval prompts (see ApprovalPolicy). Default false. */
  readonly trusted?: boolean;
}

/** One server of a config. */
export type ServerConfig = StdioServerConfig | HttpServerConfig | TransportServerConfig;

/** Options of {@link parseServersConfig}. */
export interface ParseServersOptions {
  /**
   * Where the config comes from (a file's path). When given, every message names it: `config
   * <source> has no "mcpServers" object`, `config <source>: server "x" ...`.
   */
  readonly source?: string;
}

/**
 * Reads a parsed config: `{"mcpServers": {name: entry}}` (`servers`, as VS Code writes it, too).
 * Entries with `"disabled": true` are left out; `"trusted": true` is kept (only when true).
 * Throws TypeError naming the entry at fault. The one reader of the format: the host, the
 * gateway and the CLI all read configs with it.
 */
export function parseServersConfig(
  json: unknown,
  options: ParseServersOptions = {},
): Record<string, StdioServerConfig | HttpServerConfig> {
  const { source } = options;
  const root = asObject(json);
  const servers = asObject(root?.['mcpServers'] ?? root?.['servers']);
  if (servers === undefined) {
    throw new TypeError(
      `${source === undefined ? 'the config' : `config ${source}`} has no "mcpServers" object`,
    );
  }
  const out: Record<string, StdioServerConfig | HttpServerConfig> = {};
  for (const [name, value] of Object.entries(servers)) {
    const prefix = source === undefined ? '' : `config ${source}: `;
    const bad = (what: string) => new TypeError(`${prefix}server "${name}" ${what}`);
    const entry = asObject(value);
    if (entry === undefined) throw bad('is not an object');
    if (entry['disabled'] === true) continue;
    out[name] = parseEntry(entry, bad);
  }
  return out;
}

/** One enabled entry; `bad` makes the error for what is wrong with it. */
function parseEntry(
  entry: Record<string, unknown>,
  bad: (what: string) => TypeError,
): StdioServerConfig | HttpServerConfig {
  const trusted = entry['trusted'];
  if (trusted !== undefined && typeof trusted !== 'boolean') {
    throw bad('has a "trusted" that is not true or false');
  }
  const trust = trusted === true ? { trusted } : {};
  if (typeof entry['url'] === 'string') {
    try {
      new URL(entry['url']);
    } catch {
      throw bad(`has an invalid "url": ${entry['url']}`);
    }
    const headers = stringRecord(entry['headers']);
    if (headers === undefined) throw bad('has "headers" that are not strings');
    return { url: entry['url'], headers, ...trust };
  }
  const command = entry['command'];
  if (typeof command !== 'string' || command === '') throw bad('has neither "command" nor "url"');
  const args = entry['args'] ?? [];
  if (!Array.isArray(args) || !args.every((arg) => typeof arg === 'string')) {
    throw bad('has "args" that are not a list of strings');
  }
  const env = stringRecord(entry['env']);
  if (env === undefined) throw bad('has "env" values that are not strings');
  const cwd = entry['cwd'];
  if (cwd !== undefined && typeof cwd !== 'string') throw bad('has a "cwd" that is not a string');
  return { command, args, env, ...(cwd === undefined ? {} : { cwd }), ...trust };
}

/** The transport to a configured server. */
export function createServerTransport(
  config: ServerConfig,
  options: {
    onStderr?: (chunk: string) => void;
    /** The fetch of HTTP servers. Default: the global fetch. */
    fetch?: (url: string, init: RequestInit) => Promise<Response>;
  } = {},
): Transport | Promise<Transport> {
  if ('transport' in config) return config.transport();
  if ('url' in config) {
    const fetch = options.fetch === undefined ? {} : { fetch: options.fetch };
    return createStreamableHttpClientTransport(config.url, {
      headers: { ...config.headers },
      ...fetch,
    });
  }
  return createStdioClientTransport({
    command: config.command,
    args: config.args ?? [],
    ...(config.env === undefined ? {} : { env: { ...config.env } }),
    ...(config.cwd === undefined ? {} : { cwd: config.cwd }),
    stderr: options.onStderr === undefined ? 'ignore' : 'pipe',
    killTimeoutMs: 1000,
    ...(options.onStderr === undefined ? {} : { onStderr: options.onStderr }),
  });
}
