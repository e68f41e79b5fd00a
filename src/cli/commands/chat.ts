// mcpkit chat: a model connected to MCP servers, at the terminal or one-shot (-p). The host
// (mcpkit/host) does the work: tool definitions in, tool calls out, results back, with approval
// prompts; this command picks the model API, reads the servers and shows what happens.
import type {
  ApprovalRequest,
  DeferLoadingOptions,
  HostEvent,
  HostMessage,
  ModelAdapter,
  RunResult,
} from '../../host/index.js';
import { Host, ModelError, createAnthropicAdapter, createOpenAiAdapter } from '../../host/index.js';
import { SHARED_HELP, flag, text, texts } from '../args.js';
import type { CommandContext } from '../command.js';
import { runCommand } from '../command.js';
import type { Prompter } from '../elicit.js';
import { createElicitHandler, openPrompter } from '../elicit.js';
import { CliError, ExitCode, UsageError } from '../errors.js';
import type { Io } from '../io.js';
import { truncate, writeJson } from '../output.js';
import { gatherServers, trustServers } from '../chat-servers.js';
import { version } from '../version.js';
import { startTelemetry, tracedClients } from '../otel.js';
import { agentSpan, tracedModel } from '../../ext/otel/index.js';

/** The default model of each API. */
export const DEFAULT_MODELS = { anthropic: 'claude-sonnet-4-5', openai: 'gpt-4.1' } as const;

/** The --help text. */
export const help: string = `Usage: mcpkit chat [flags] [--server <url>]... [--config <file>] [--server -- <command> [args...]]

Chats with a model that can call the tools of MCP servers: the tools of every server go to
the model, the calls it makes are run (after your approval, where one is needed) and their
results go back, until it answers. With -p, one prompt and the final answer on stdout;
without it, a conversation at the terminal (empty line or Ctrl-D ends it), or one prompt a
line of piped stdin.

The model API: Anthropic Messages (ANTHROPIC_API_KEY, ANTHROPIC_BASE_URL) or any
OpenAI-compatible Chat Completions endpoint (OPENAI_API_KEY, OPENAI_BASE_URL: OpenAI, vLLM,
llama.cpp, Ollama), read as the official SDKs read them.

Flags:
  --config <file>        servers from a config: {"mcpServers": {"name": {"command","args","env","cwd"} | {"url","headers"}}}
  --server <url>         add a server over Streamable HTTP (repeatable); "--server -- <command>"
                         (or a command after --) adds one over stdio
  --provider <api>       anthropic or openai (default: the one whose variables are set, anthropic first)
  --model <name>         the model (default ${DEFAULT_MODELS.anthropic} or ${DEFAULT_MODELS.openai})
  -p, --prompt <text>    one-shot: print the final answer and exit
  --yes                  approve every tool call and sampling request without asking
  --trust <server>       trust the tool annotations of this server (repeatable; a config entry
                         can say "trusted": true)
  --max-turns <n>        most model requests per prompt (default 20)
  --system <text>        the system prompt
  --text-only            the model takes no images (they reach it as a short note)
  --stream               stream the model's answers (SSE)
  --tool-search <kind>   deferred loading of tools, when their definitions pass 10,000 tokens:
                         bm25 (the default) or regex, the API's own tool search (Anthropic;
                         other APIs get mcpkit's search_tools); off sends every definition
  --code-mode            offer the model one tool, run_code: it writes JavaScript against typed
                         declarations of the tools, run in a QuickJS sandbox, so that tool
                         results stay out of the conversation (needs quickjs-emscripten)
  --otel                 trace the calls to the servers with OpenTelemetry (OTLP/HTTP to
                         OTEL_EXPORTER_OTLP_ENDPOINT; needs @opentelemetry/api and
                         @opentelemetry/sdk-node)

Without --yes, tools marked readOnlyHint (and not destructiveHint) run at once when their
server is trusted; every other call is asked at the terminal (declined when there is no
terminal), and a declined call reaches the model as an error.

Exit codes: 0 answered, 2 the model API failed or a server could not be reached,
3 bad usage or config.

Examples:
  mcpkit chat -p "Call PingME for me" --trust pingme --server -- mcpkit serve pingme
  mcpkit chat --provider openai -p "Call PingME for me" --server http://127.0.0.1:3000/mcp
  mcpkit chat --config ~/.config/mcp.json -p "Call PingME for me"
  mcpkit chat --config ~/.config/mcp.json --yes --max-turns 5 --stream

${SHARED_HELP}`;

const OPTIONS = {
  config: { type: 'string' },
  server: { type: 'string', multiple: true },
  provider: { type: 'string' },
  model: { type: 'string' },
  prompt: { type: 'string', short: 'p' },
  yes: { type: 'boolean' },
  trust: { type: 'string', multiple: true },
  'max-turns': { type: 'string' },
  system: { type: 'string' },
  'text-only': { type: 'boolean' },
  stream: { type: 'boolean' },
  'code-mode': { type: 'boolean' },
  'tool-search': { type: 'string' },
  otel: { type: 'boolean' },
} as const;

/** Runs `mcpkit chat`. */
export function run(args: readonly string[], io: Io): Promise<number> {
  return runCommand(
    { name: 'chat', options: OPTIONS, help },
    { args: dropBareServer(args), io },
    (ctx) => chat(ctx),
  );
}

/** `--server -- <command>`: the flag names the command after `--`, which needs no value. */
function dropBareServer(args: readonly string[]): readonly string[] {
  const dash = args.indexOf('--');
  if (dash > 0 && args[dash - 1] === '--server')
    return [...args.slice(0, dash - 1), ...args.slice(dash)];
  return args;
}

async function chat(ctx: CommandContext): Promise<number> {
  const { parsed, io } = ctx;
  if (parsed.positionals.length > 0) {
    throw new UsageError(
      `unexpected argument "${parsed.positionals[0] ?? ''}"`,
      'give servers with --server <url> or after --',
    );
  }
  const deferLoading = toolSearch(text(parsed, 'tool-search'));
  const servers = trustServers(await gatherServers(ctx), texts(parsed, 'trust'));
  const provider = chooseProvider(text(parsed, 'provider'), io.env);
  const maxTurns = positiveInteger(text(parsed, 'max-turns'), '--max-turns') ?? 20;
  const prompt = text(parsed, 'prompt');
  const quiet = ctx.common.quiet || ctx.common.json;
  // Lines come from the terminal, or from piped stdin without -p; approvals only at a terminal.
  const prompter = new Lines(io, io.isTTY || prompt === undefined);
  const elicit = createElicitHandler({ io, style: ctx.style, answers: new Map() });
  const system = text(parsed, 'system');
  // A conversation streams its answers to stdout, unless --json.
  const streamed = flag(parsed, 'stream') || (prompt === undefined && !ctx.common.json);
  const { adapter, modelName, telemetry, clients, agent } = await observedModel(ctx, provider);
  const host = new Host({
    model: adapter,
    modelName,
    servers,
    capabilities: { vision: !flag(parsed, 'text-only') },
    stream: streamed,
    codeMode: flag(parsed, 'code-mode'),
    ...(deferLoading === undefined ? {} : { deferLoading }),
    approval: flag(parsed, 'yes')
      ? { mode: 'always', sampling: 'always' }
      : { mode: 'annotations', sampling: 'ask' },
    onApproval: (request) => askApproval(request, ctx, io.isTTY ? prompter : undefined),
    // The elicitation form reads stdin itself: the conversation's reader pauses meanwhile.
    onElicit: (params, inputCtx) => prompter.paused(async () => elicit(params, inputCtx)),
    clientInfo: { name: 'mcpkit-chat', version: version() },
    ...(system === undefined ? {} : { system }),
    ...(ctx.common.timeoutMs === undefined ? {} : { timeoutMs: ctx.common.timeoutMs }),
    ...clients,
    ...(quiet
      ? {}
      : { onStderr: (_server: string, chunk: string) => io.stderr.write(ctx.style.dim(chunk)) }),
  });
  ctx.stderrShown = !quiet;
  try {
    const statuses = await host.connect();
    const failed = statuses.filter((status) => status.status === 'failed');
    for (const status of failed) {
      io.stderr.write(
        `${ctx.style.yellow(`warning: server "${status.name}" could not be reached: ${status.error ?? ''}`)}\n`,
      );
    }
    const show = (event: HostEvent) => {
      showEvent(event, ctx, { streaming: prompt === undefined && streamed, quiet });
    };
    if (prompt !== undefined) {
      const result = await runOnce(host, [{ role: 'user', content: prompt }], {
        maxTurns,
        onEvent: show,
        traced: agent,
      });
      if (ctx.common.json) writeJson(io.stdout, jsonOf(result, provider, host));
      else io.stdout.write(`${result.text}\n`);
      return failed.length > 0 ? ExitCode.Failure : ExitCode.Ok;
    }
    await converse(host, prompter, {
      ctx,
      maxTurns,
      show,
      streamed,
      provider,
      traced: agent,
    });
    return ExitCode.Ok;
  } finally {
    prompter.close();
    await host.close();
    await telemetry?.shutdown();
  }
}

/**
 * The model's adapter, and with --otel (or OTEL_* variables) the telemetry: the adapter traced
 * (`chat {model}` spans), the host's client options (traced clients, trace headers on HTTP) and
 * the agent whose span is each run's root.
 */
async function observedModel(ctx: CommandContext, provider: 'anthropic' | 'openai') {
  const { parsed, io } = ctx;
  const adapter: ModelAdapter =
    provider === 'anthropic'
      ? createAnthropicAdapter({ env: io.env })
      : createOpenAiAdapter({ env: io.env });
  const modelName = text(parsed, 'model') ?? DEFAULT_MODELS[provider];
  const telemetry = await startTelemetry({ otel: flag(parsed, 'otel') }, 'mcpkit-chat', io.env);
  if (telemetry === undefined) {
    return { adapter, modelName, telemetry, clients: {}, agent: undefined };
  }
  return {
    adapter: tracedModel(adapter),
    modelName,
    telemetry,
    clients: tracedClients(telemetry, 'global').options,
    agent: { name: 'mcpkit-chat', provider, model: modelName } as Agent,
  };
}

/** The agent a traced run's span names (--otel). */
type Agent = { readonly name: string; readonly provider: string; readonly model: string };

/** One run; a model API failure becomes a CliError (exit 2). */
async function runOnce(
  host: Host,
  messages: HostMessage[],
  options: { maxTurns: number; onEvent: (event: HostEvent) => void; traced: Agent | undefined },
): Promise<RunResult> {
  const { traced, ...runOptions } = options;
  const run = () => host.run(messages, runOptions);
  try {
    // --otel: the run is one span, `invoke_agent mcpkit-chat`, the root of its model and tool calls.
    return await (traced === undefined ? run() : agentSpan(traced, run));
  } catch (error) {
    if (error instanceof ModelError) {
      throw new CliError(error.message, {
        hint:
          error.status === 401 || error.status === 403
            ? 'check the API key (ANTHROPIC_API_KEY or OPENAI_API_KEY)'
            : 'check the endpoint (ANTHROPIC_BASE_URL or OPENAI_BASE_URL), the model name and --provider',
        cause: error,
      });
    }
    throw error;
  }
}

/** The conversation at the terminal: a prompt a line, until an empty line or end of input. */
async function converse(
  host: Host,
  prompter: Lines,
  options: {
    ctx: CommandContext;
    maxTurns: number;
    show: (event: HostEvent) => void;
    streamed: boolean;
    provider: string;
    traced: Agent | undefined;
  },
): Promise<void> {
  const { ctx } = options;
  let messages: HostMessage[] = [];
  const names = host.tools.map((tool) => tool.name);
  ctx.io.stderr.write(
    ctx.style.dim(
      `${String(names.length)} tool${names.length === 1 ? '' : 's'}: ${truncate(names.join(', '), 200)}\n`,
    ),
  );
  for (;;) {
    const line = await prompter.ask(ctx.style.bold('you> '));
    if (line === undefined || line.trim() === '' || line.trim() === '/exit') return;
    try {
      const result = await runOnce(host, [...messages, { role: 'user', content: line }], {
        maxTurns: options.maxTurns,
        onEvent: options.show,
        traced: options.traced,
      });
      messages = result.messages;
      if (options.streamed) ctx.io.stdout.write('\n');
      else if (ctx.common.json) writeJson(ctx.io.stdout, jsonOf(result, options.provider, host));
      else ctx.io.stdout.write(`${result.text}\n`);
    } catch (error) {
      if (!(error instanceof CliError)) throw error;
      ctx.io.stderr.write(`${ctx.style.red('error:')} ${error.message}\n`);
    }
  }
}

/** Shows a step on stderr (tool calls, approvals, results), or streamed text on stdout. */
function showEvent(
  event: HostEvent,
  ctx: CommandContext,
  options: { streaming: boolean; quiet: boolean },
): void {
  const { io, style } = ctx;
  if (event.type === 'text_delta') {
    // The answer itself: shown even with --quiet.
    if (options.streaming) io.stdout.write(event.text);
    return;
  }
  if (options.quiet) return;
  switch (event.type) {
    case 'text':
      if (!options.streaming) return;
      break;
    case 'tool_call':
      io.stderr.write(
        style.cyan(
          `→ ${event.name}${event.server === undefined ? '' : ` (${event.server})`} ${truncate(JSON.stringify(event.arguments), 200)}\n`,
        ),
      );
      break;
    case 'approval':
      if (event.decision === 'declined')
        io.stderr.write(style.yellow(`  declined ${event.name}\n`));
      break;
    case 'tool_result': {
      const body = event.content
        .map((part) => (part.type === 'text' ? part.text : `[${part.type}]`))
        .join(' ');
      const line = `← ${event.isError ? 'error: ' : ''}${truncate(body.replace(/\s+/g, ' '), 200)}${event.truncated ? ' (truncated)' : ''}\n`;
      io.stderr.write(event.isError ? style.red(line) : style.dim(line));
      break;
    }
    case 'tools_changed':
      io.stderr.write(style.dim(`(the tools of ${event.server} changed)\n`));
      break;
    case 'sampling':
      io.stderr.write(style.dim(`(${event.server} asked the model: ${event.decision})\n`));
      break;
    case 'done':
    case 'model_request':
    case 'server_connected':
    case 'server_failed':
      break;
  }
}

/** Asks at the terminal; declines without one. */
async function askApproval(
  request: ApprovalRequest,
  ctx: CommandContext,
  prompter: Lines | undefined,
): Promise<boolean> {
  const { io, style } = ctx;
  const what =
    request.kind === 'tool'
      ? `run ${request.tool} on ${request.server} with ${truncate(JSON.stringify(request.arguments), 300)}`
      : `let ${request.server} ask the model: ${truncate(request.summary, 300)}`;
  if (prompter === undefined) {
    io.stderr.write(
      style.yellow(`declined (no terminal to ask; pass --yes to approve): ${what}\n`),
    );
    return false;
  }
  const answer = await prompter.ask(`${style.bold('approve?')} ${what} [y/N] `);
  return answer !== undefined && /^y(es)?$/i.test(answer.trim());
}

/** --tool-search: the host's `deferLoading` (undefined: its default, BM25). Throws UsageError. */
function toolSearch(given: string | undefined): DeferLoadingOptions | false | undefined {
  if (given === undefined) return undefined;
  if (given === 'off') return false;
  if (given === 'bm25' || given === 'regex') return { search: given };
  throw new UsageError(`unknown --tool-search "${given}"`, 'give --tool-search bm25, regex or off');
}

/** --provider, or the API whose variables are set (Anthropic first). Throws UsageError. */
export function chooseProvider(
  given: string | undefined,
  env: Readonly<Record<string, string | undefined>>,
): 'anthropic' | 'openai' {
  if (given === 'anthropic' || given === 'openai') return given;
  if (given !== undefined)
    throw new UsageError(
      `unknown --provider "${given}"`,
      'give --provider anthropic or --provider openai',
    );
  const set = (name: string) => (env[name] ?? '') !== '';
  if (set('ANTHROPIC_API_KEY') || set('ANTHROPIC_BASE_URL')) return 'anthropic';
  if (set('OPENAI_API_KEY') || set('OPENAI_BASE_URL')) return 'openai';
  throw new UsageError(
    'no model API configured',
    'set ANTHROPIC_API_KEY (or ANTHROPIC_BASE_URL), or OPENAI_API_KEY / OPENAI_BASE_URL for an OpenAI-compatible endpoint',
  );
}

function positiveInteger(value: string | undefined, name: string): number | undefined {
  if (value === undefined) return undefined;
  const number = Number(value);
  if (!Number.isSafeInteger(number) || number < 1)
    throw new UsageError(`${name} ${value}: give a positive integer`);
  return number;
}

/** The shape of `mcpkit chat -p … --json`. */
function jsonOf(result: RunResult, provider: string, host: Host) {
  return {
    provider,
    answer: result.text,
    turns: result.turns,
    stopReason: result.stopReason,
    servers: host.servers,
    calls: result.calls.map((call) => ({
      name: call.name,
      server: call.server,
      tool: call.tool,
      arguments: call.arguments,
      decision: call.decision,
      isError: call.shaped.isError,
      content: call.shaped.content,
      ...(call.result?.structuredContent === undefined
        ? {}
        : { structuredContent: call.result.structuredContent }),
      ...(call.error === undefined ? {} : { error: call.error }),
    })),
  };
}

/**
 * The lines a person types (or pipes): one reader at a time over stdin, closed while another
 * (an elicitation form) reads, and reopened after.
 */
class Lines {
  readonly #io: Io;
  #reader: Prompter | undefined;
  readonly #signal = new AbortController();

  constructor(io: Io, open: boolean) {
    this.#io = io;
    this.#reader = open ? openPrompter(io, this.#signal.signal) : undefined;
  }

  /** The next line; undefined at end of input, or when there is no input to read. */
  ask(prompt: string): Promise<string | undefined> {
    return this.#reader?.ask(prompt) ?? Promise.resolve(undefined);
  }

  /** Runs `work` with the reader closed. */
  async paused<T>(work: () => Promise<T>): Promise<T> {
    const had = this.#reader !== undefined;
    this.#reader?.close();
    this.#reader = undefined;
    try {
      return await work();
    } finally {
      if (had) this.#reader = openPrompter(this.#io, this.#signal.signal);
    }
  }

  close(): void {
    this.#reader?.close();
    this.#reader = undefined;
  }
}
