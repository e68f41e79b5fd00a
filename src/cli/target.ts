// Targets: the server a command talks to. A URL given first (Streamable HTTP), a command given
// last after `--` (stdio), or the entries of a Claude-Desktop-style config file. openSession
// connects a Client to one, wrapping the transport for --trace.
import { readFile } from 'node:fs/promises';
import process from 'node:process';
import type { ClientOptions } from '../client/index.js';
import type { HttpServerConfig, StdioServerConfig } from '../catalogue/index.js';
import { parseServersConfig } from '../catalogue/index.js';
import { Client, LocalError } from '../client/index.js';
import type { Transport } from '../jsonrpc/index.js';
import type { StreamableHttpClientTransport } from '../transports/http/index.js';
import { createStreamableHttpClientTransport } from '../transports/http/index.js';
import type { StdioClientOptions } from '../transports/stdio/index.js';
import { createStdioClientTransport } from '../transports/stdio/index.js';
import type { CommonOptions, ParsedArgs } from './args.js';
import { CliError, UsageError } from './errors.js';
import type { HostContext } from './host.js';
import { hostOptions } from './host.js';
import type { Io } from './io.js';
import type { Style } from './output.js';
import { cliOAuth, storedTokensUsable, tokenFile } from './oauth.js';
import { traceTransport } from './trace.js';
import { version } from './version.js';
import { withTasks } from './tasks-api.js';
import { messageOf } from '../internal/message-of.js';

/** A server reached over Streamable HTTP. */
export interface UrlTarget {
  readonly kind: 'url';
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  /** Its name in a config file. */
  readonly name?: string;
}

/** A server run as a child process and reached over stdio. */
export interface CommandTarget {
  readonly kind: 'command';
  readonly command: string;
  readonly args: readonly string[];
  /** Variables added to the default environment (config files). */
  readonly env?: Readonly<Record<string, string>>;
  readonly cwd?: string;
  /** Its name in a config file. */
  readonly name?: string;
}

/** A server to talk to. */
export type Target = UrlTarget | CommandTarget;

/** Whether the target's headers carry an Authorization header (then no OAuth sign-in). */
export function hasAuthorization(target: UrlTarget): boolean {
  return Object.keys(target.headers).some((name) => name.toLowerCase() === 'authorization');
}

/** How every command starts a stdio server: its command, variables and folder, stderr piped. */
export function spawnOptions(target: CommandTarget): StdioClientOptions {
  return {
    command: target.command,
    args: target.args,
    ...(target.env === undefined ? {} : { env: { ...target.env } }),
    ...(target.cwd === undefined ? {} : { cwd: target.cwd }),
    stderr: 'pipe',
    killTimeoutMs: 1000,
  };
}

/** Whether a positional argument is a server URL. */
export function isUrl(text: string): boolean {
  return /^https?:\/\//i.test(text);
}

const TARGET_HINT =
  'give a URL first (mcpkit list http://127.0.0.1:3000/mcp) or a command last (mcpkit list -- node server.js)';

/**
 * The one target of a command: the first positional when it is a URL, else the command after
 * `--`. Returns the positionals left. Throws UsageError for none or both.
 */
export function singleTarget(
  parsed: ParsedArgs,
  common: CommonOptions,
): { target: Target; rest: string[] } {
  const [first, ...rest] = parsed.positionals;
  const url = first !== undefined && isUrl(first) ? first : undefined;
  const command = commandTarget(parsed.command);
  if (url !== undefined && command !== undefined) {
    throw new UsageError('give either a URL or a command after --, not both');
  }
  if (url !== undefined) return { target: urlTarget(url, common.headers), rest };
  if (command !== undefined) return { target: command, rest: [...parsed.positionals] };
  throw new UsageError('no server given', TARGET_HINT);
}

/**
 * The targets of budget and lint: every positional URL, the command after `--`, and the
 * servers of a config file. Throws UsageError when there are none.
 */
export async function manyTargets(
  parsed: ParsedArgs,
  common: CommonOptions,
  configPath: string | undefined,
): Promise<Target[]> {
  const targets: Target[] = [];
  for (const positional of parsed.positionals) {
    if (!isUrl(positional)) {
      throw new UsageError(
        `"${positional}" is not a URL`,
        'give server URLs, a command after --, or --config <file>',
      );
    }
    targets.push(urlTarget(positional, common.headers));
  }
  const command = commandTarget(parsed.command);
  if (command !== undefined) targets.push(command);
  if (configPath !== undefined) targets.push(...(await readConfig(configPath)));
  if (targets.length === 0) {
    throw new UsageError('no server given', `${TARGET_HINT}, or --config <file>`);
  }
  return targets;
}

function urlTarget(url: string, headers: Readonly<Record<string, string>>): UrlTarget {
  try {
    new URL(url);
  } catch {
    throw new UsageError(`invalid URL "${url}"`);
  }
  return { kind: 'url', url, headers };
}

function commandTarget(command: readonly string[] | undefined): CommandTarget | undefined {
  if (command === undefined) return undefined;
  const [program, ...args] = command;
  if (program === undefined || program === '') {
    throw new UsageError(
      'nothing after --',
      'write the server command after --: -- node server.js',
    );
  }
  return { kind: 'command', command: program, args };
}

/** How a config file is written, the hint of every error in one. */
const CONFIG_HINT = 'write {"mcpServers": {"name": {"command": "node", "args": ["server.js"]}}}';

/**
 * The servers of a Claude-Desktop-style config file: `{"mcpServers": {name: {command, args, env,
 * cwd} | {url, headers}}}` (`servers` too, as VS Code writes it), read by the catalogue's one
 * parser; entries marked `"disabled": true` are left out. Throws UsageError for a missing,
 * unreadable or malformed file, naming the file and the entry at fault.
 */
export async function readServersFile(
  path: string,
): Promise<Record<string, StdioServerConfig | HttpServerConfig>> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(await readFile(path, 'utf8'));
  } catch (error) {
    const reason = messageOf(error);
    throw new UsageError(`cannot read config ${path}: ${reason}`);
  }
  try {
    return parseServersConfig(parsed, { source: path });
  } catch (error) {
    throw new UsageError(messageOf(error), CONFIG_HINT);
  }
}

/** The servers of a config file (see {@link readServersFile}) as targets, named. */
export async function readConfig(path: string): Promise<Target[]> {
  const servers = await readServersFile(path);
  return Object.entries(servers).map(([name, config]): Target => {
    if ('url' in config)
      return { kind: 'url', url: config.url, headers: config.headers ?? {}, name };
    return {
      kind: 'command',
      command: config.command,
      args: config.args ?? [],
      ...(config.env === undefined ? {} : { env: config.env }),
      name,
      ...(config.cwd === undefined ? {} : { cwd: config.cwd }),
    };
  });
}

/** How a target is named in output: its config name, else its URL or command line. */
export function targetLabel(target: Target): string {
  if (target.name !== undefined) return target.name;
  return target.kind === 'url' ? target.url : [target.command, ...target.args].join(' ');
}

/** A connected client and how to end it. */
export interface Session {
  readonly client: Client;
  readonly target: Target;
  /** Whether the server's stderr is shown live (errors then do not repeat its tail). */
  readonly stderrShown: boolean;
  /** Closes the connection (and stops the server process). Idempotent. */
  close(): Promise<void>;
  /** `error` with what the session knows that may explain it (a server logging to stdout). */
  explain(error: unknown): unknown;
  /** The transport in use: HTTP+SSE once a Streamable HTTP connection fell back to it. */
  transportName(): 'stdio' | 'streamable-http' | 'http+sse';
}

/** Options of {@link openSession}. */
export interface OpenOptions {
  readonly io: Io;
  readonly common: CommonOptions;
  readonly style: Style;
  /** Handlers and settings added to the client (onLog, logLevel). */
  readonly client?: ClientOptions;
  /** For the host's elicitation: `--answer` values, and what to do before a prompt. */
  readonly host?: Pick<HostContext, 'answers' | 'beforePrompt'>;
  /** Show a stdio server's stderr as it arrives. Default: unless --quiet. */
  readonly showStderr?: boolean;
}

/** Connects a Client to `target`. Rejects (the transport closed) when that fails. */
export async function openSession(target: Target, options: OpenOptions): Promise<Session> {
  const { io, common, style } = options;
  const showStderr = options.showStderr ?? !common.quiet;
  const noise: StdoutNoise = { lines: 0, first: undefined };
  const showNoise = common.trace || common.debug;
  const raw = createTransport(target, { io, style, common, showStderr, noise, showNoise });
  let transport: Transport = raw;
  if (common.trace) transport = traceTransport(transport, io.stderr, { style });
  const clientOptions: ClientOptions = {
    // Spec 2026-07-28 server/tools#x-mcp-header: clients SHOULD log the tools they leave out.
    onToolRejected: ({ name, reason }) => {
      if (!common.quiet)
        io.stderr.write(`${style.yellow(`warning: tool "${name}" left out: ${reason}`)}\n`);
    },
    ...hostOptions({ io, style, settings: common.host, cwd: process.cwd(), ...options.host }),
    ...options.client,
  };
  if (common.protocol !== undefined) clientOptions.mode = { pin: common.protocol };
  if (common.timeoutMs !== undefined) clientOptions.timeoutMs = common.timeoutMs;
  if (common.debug) {
    const onError = (error: Error): void => {
      io.stderr.write(`${style.dim(`debug: ${error.message}`)}\n`);
    };
    clientOptions.onError = onError;
  }
  const client = withTasks(new Client({ name: 'mcpkit', version: version() }, clientOptions));
  await client.connect(transport, connectOptions(target, io, common)).catch((error: unknown) => {
    throw withNoise(error, noise);
  });
  return {
    client,
    target,
    stderrShown: showStderr,
    close: async () => {
      await client.close();
      if (!showNoise && !common.quiet) tellNoise(io, style, noise);
    },
    explain: (error) => withNoise(error, noise),
    transportName: () =>
      target.kind === 'command'
        ? 'stdio'
        : (raw as StreamableHttpClientTransport).mode === 'sse'
          ? 'http+sse'
          : 'streamable-http',
  };
}

/** The lines a stdio server wrote to stdout that are not JSON-RPC (and were dropped). */
interface StdoutNoise {
  lines: number;
  /** The start of the first such line, as the transport quoted it. */
  first: string | undefined;
  /** Whether an error's hint named them already. */
  told?: boolean;
}

/** The one-line notice of dropped stdout lines, when a command ends and nothing said so yet. */
function tellNoise(io: Io, style: Style, noise: StdoutNoise): void {
  if (noise.lines === 0 || noise.told === true) return;
  noise.told = true;
  const lines =
    noise.lines === 1 ? '1 non-JSON stdout line' : `${String(noise.lines)} non-JSON stdout lines`;
  io.stderr.write(
    `${style.dim(`note: ${lines} of the server dropped (first: ${JSON.stringify(noise.first)}); a stdio server writes only protocol messages to stdout (--trace shows them)`)}\n`,
  );
}

/**
 * A failure that the server's stdout noise may explain (it logged to stdout, so the answer the
 * client waits for may never come) says so; any other error is returned as is.
 */
function withNoise(error: unknown, noise: StdoutNoise): unknown {
  if (noise.lines === 0 || !(error instanceof LocalError)) return error;
  noise.told = true;
  const lines = noise.lines === 1 ? '1 line' : `${String(noise.lines)} lines`;
  return new CliError(error.message, {
    hint: `the server wrote ${lines} to stdout that ${noise.lines === 1 ? 'is' : 'are'} not JSON-RPC (first: ${JSON.stringify(noise.first)}); a stdio server must write only protocol messages to stdout and log to stderr (--trace shows them)`,
    cause: error,
  });
}

interface TransportContext {
  io: Io;
  style: Style;
  common: CommonOptions;
  showStderr: boolean;
  noise: StdoutNoise;
  showNoise: boolean;
}

/**
 * The transport to `target`. A URL target is authorized by the CLI's OAuth client, unless an
 * `Authorization` header was given (that header is then the credential).
 */
function createTransport(target: Target, options: TransportContext): Transport {
  if (target.kind === 'url') {
    return createStreamableHttpClientTransport(target.url, {
      headers: target.headers,
      ...(hasAuthorization(target) ? {} : { auth: cliOAuth(target.url, options) }),
    });
  }
  const { io, style, showStderr, noise } = options;
  return createStdioClientTransport({
    ...spawnOptions(target),
    onError: (error: LocalError) => {
      // The transport quotes the start of the line last: ... ("the line").
      const line = /\("(.*)"\)$/s.exec(error.message)?.[1] ?? error.message;
      noise.lines++;
      noise.first ??= line;
      if (options.showNoise) {
        io.stderr.write(`${style.dim(`server stdout (not JSON-RPC, dropped): ${line}`)}\n`);
      }
    },
    ...(showStderr
      ? {
          onStderr: (chunk: string) => {
            io.stderr.write(style.dim(chunk));
          },
        }
      : {}),
  });
}

/** How long a browser sign-in may take when a server is first contacted. */
const SIGN_IN_MS = 300_000;

/**
 * A URL target without usable stored tokens (none, or expired with no refresh token) may ask
 * the user to sign in while connecting: the negotiation then waits up to five minutes instead
 * of the timeout. A step-up later in the command keeps the timeout (docs/cli.md).
 */
function connectOptions(target: Target, io: Io, common: CommonOptions): { timeoutMs?: number } {
  if (target.kind !== 'url' || storedTokensUsable(tokenFile(io.env, target.url), target.url)) {
    return {};
  }
  return { timeoutMs: Math.max(common.timeoutMs ?? 0, SIGN_IN_MS) };
}

/** Runs `work` with a session on `target`, and closes the session however `work` ends. */
export async function withSession<TResult>(
  target: Target,
  options: OpenOptions,
  work: (session: Session) => Promise<TResult>,
): Promise<TResult> {
  const session = await openSession(target, options);
  try {
    return await work(session);
  } catch (error) {
    throw session.explain(error);
  } finally {
    await session.close();
  }
}
