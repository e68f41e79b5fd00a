// The host: connects a model to many MCP servers. It lists every server's tools, gives the model
// their definitions under one namespace, runs the calls the model asks for (after the approval
// gate), shapes each result into a tool_result, and loops until the model answers. Servers'
// sampling requests are answered by the same model; elicitations go to a callback.
import type {
  CallToolResult,
  ElicitHandler,
  InputContext,
  SampleHandler,
  Tool,
} from '../client/index.js';
import { Client, JsonRpcError } from '../client/index.js';
import type { ServerConfig, Tokenizer } from '../catalogue/index.js';
import {
  SEARCH_TOOLS,
  SEARCH_TOOLS_DEFINITION,
  createServerTransport,
  loadTokenizerOrEstimate,
  nameTools,
  searchTools,
  serializeTool,
} from '../catalogue/index.js';
import type { ApprovalCallback, ApprovalPolicy, Decision } from './approval.js';
import { decide, ruleFor } from './approval.js';
import { adaptInputSchema } from './schema.js';
import type { ShapedResult } from './shape.js';
import {
  DEFAULT_RESULT_TOKENS,
  MAX_RESULT_CHARS_META,
  declinedResult,
  errorResult,
  shapeResult,
} from './shape.js';
import type {
  HostMessage,
  ModelAdapter,
  ModelCallOptions,
  ModelCapabilities,
  ModelRequest,
  ModelResponse,
  ModelTool,
  Part,
  StopReason,
  TextPart,
  ToolCallPart,
  ToolChoice,
  ToolResultPart,
} from './types.js';

/** Options of a {@link Host}. */
export interface HostOptions {
  /** The model API. */
  readonly model: ModelAdapter;
  /** The model to ask when a run names none (and for sampling). */
  readonly modelName: string;
  /** The servers, by name (see parseServersConfig). Default none. */
  readonly servers?: Readonly<Record<string, ServerConfig>>;
  /** What the model takes besides text. Default: images yes, audio no. */
  readonly capabilities?: Partial<ModelCapabilities>;
  /** The system prompt. */
  readonly system?: string;
  /** `max_tokens` of each model request. Default 4096. */
  readonly maxTokens?: number;
  /** Stream model answers (SSE). Default false. */
  readonly stream?: boolean;
  /** Approval rules. Default: by annotations, sampling asked. */
  readonly approval?: ApprovalPolicy;
  /** Asked where a rule says `ask`; without it, those calls are declined. */
  readonly onApproval?: ApprovalCallback;
  /** Answers servers' elicitations; without it, elicitation is not declared. */
  readonly onElicit?: ElicitHandler;
  /** Receives every step, of every run. */
  readonly onEvent?: (event: HostEvent) => void;
  /** The budget of one tool result in tokens. Default 25,000. */
  readonly resultTokens?: number;
  /** Read `resource_link`s of results through `resources/read` (size-capped). Default false. */
  readonly resolveResourceLinks?: boolean;
  /**
   * Above this many tokens of tool definitions (counted as `mcpkit budget` counts them) the model
   * gets `search_tools` instead of every definition. Default: no limit (but the model API's
   * tool limit, OpenAI's 128, switches to search too).
   */
  readonly toolBudget?: number;
  /** The token counter. Default: gpt-tokenizer's o200k_base, or an estimate without it. */
  readonly tokenizer?: Tokenizer;
  /** Timeout of each MCP request in milliseconds. Default: the client's (60 s). */
  readonly timeoutMs?: number;
  /** A stdio server's stderr. Default: dropped. */
  readonly onStderr?: (server: string, chunk: string) => void;
  /** The host's name and version, as servers see it. */
  readonly clientInfo?: { name: string; version: string };
}

/** Options of one run. */
export interface RunOptions {
  /** The model. Default: the host's `modelName`. */
  readonly model?: string;
  /**
   * How the model picks tools in the first turn; later turns are `auto` (`none` stays `none`),
   * so that a forced call does not repeat forever. Default `auto`.
   */
  readonly toolChoice?: ToolChoice;
  /** Most model requests. Default 20. */
  readonly maxTurns?: number;
  /** Cancels the run: the model request and in-flight MCP calls (the servers are told). */
  readonly signal?: AbortSignal;
  /** Receives this run's steps. */
  readonly onEvent?: (event: HostEvent) => void;
}

/** One step, as it happens. */
export type HostEvent =
  | { readonly type: 'server_connected'; readonly server: string; readonly tools: number }
  | { readonly type: 'server_failed'; readonly server: string; readonly error: Error }
  | { readonly type: 'tools_changed'; readonly server: string }
  | { readonly type: 'model_request'; readonly turn: number; readonly tools: number }
  | { readonly type: 'text_delta'; readonly text: string }
  | { readonly type: 'text'; readonly text: string }
  | {
      readonly type: 'tool_call';
      readonly id: string;
      readonly name: string;
      readonly server: string | undefined;
      readonly tool: string | undefined;
      readonly arguments: Record<string, unknown>;
    }
  | {
      readonly type: 'approval';
      readonly id: string;
      readonly name: string;
      readonly decision: Decision;
    }
  | {
      readonly type: 'tool_result';
      readonly id: string;
      readonly name: string;
      readonly isError: boolean;
      readonly content: ToolResultPart['content'];
      readonly truncated: boolean;
    }
  | { readonly type: 'sampling'; readonly server: string; readonly decision: Decision }
  | { readonly type: 'done'; readonly stopReason: RunStopReason; readonly turns: number };

/** Why a run ended: the model's reason for its last answer, or the turn limit. */
export type RunStopReason = StopReason | 'max_turns';

/** One tool call of a run, for programmatic use. */
export interface CallRecord {
  readonly id: string;
  /** The model-facing name. */
  readonly name: string;
  readonly server: string | undefined;
  readonly tool: string | undefined;
  readonly arguments: Record<string, unknown>;
  readonly decision: Decision;
  /** The MCP result as the server sent it (`structuredContent` included), when the call ran. */
  readonly result?: CallToolResult;
  /** The protocol or connection error, when the call failed. */
  readonly error?: string;
  /** What the model got. */
  readonly shaped: ShapedResult;
}

/** What a run ends with. */
export interface RunResult {
  /** The whole conversation: the messages given, then the model's and the tool results. */
  readonly messages: HostMessage[];
  /** The text of the model's last answer. */
  readonly text: string;
  readonly turns: number;
  readonly calls: CallRecord[];
  readonly stopReason: RunStopReason;
}

/** A server's state, as {@link Host.servers} shows it. */
export interface ServerStatus {
  readonly name: string;
  readonly status: 'connecting' | 'connected' | 'failed' | 'closed';
  readonly tools: number;
  readonly error?: string;
}

/** A tool in the namespace. */
export interface HostTool {
  /** The model-facing name. */
  readonly name: string;
  readonly server: string;
  readonly tool: Tool;
}

/** What each server's tool definitions cost, in tokens. */
export interface ToolCost {
  readonly server: string;
  readonly tools: number;
  readonly tokens: number;
}

/** What the steps of one run share: its signal and where its events go. */
interface Step {
  readonly signal: AbortSignal | undefined;
  readonly emit: (event: HostEvent) => void;
  /** The ids of the conversation's tool calls so far: an id used again is not run. */
  readonly ids: Set<string>;
}

interface ServerState {
  readonly name: string;
  readonly config: ServerConfig;
  client: Client | undefined;
  status: ServerStatus['status'];
  tools: Tool[];
  stale: boolean;
  error: Error | undefined;
}

/** The host. Create it, `connect()`, then `run()` conversations; `close()` at the end. */
export class Host {
  readonly #options: HostOptions;
  readonly #servers: ServerState[];
  #catalog = new Map<string, HostTool>();
  /** The tokens of the catalog's tool definitions: counted once per catalog, reset by #rebuild. */
  #catalogTokens: number | undefined;
  /** Tools found by search_tools, kept for later turns and runs. */
  readonly #loaded = new Set<string>();
  #tokenizer: Tokenizer | undefined;
  /** The `onEvent` of the runs under way, for the events of servers (list changes, sampling). */
  readonly #runListeners = new Set<(event: HostEvent) => void>();
  #modelName: string;

  constructor(options: HostOptions) {
    this.#options = options;
    this.#modelName = options.modelName;
    this.#servers = Object.entries(options.servers ?? {}).map(([name, config]) => ({
      name,
      config,
      client: undefined,
      status: 'connecting',
      tools: [],
      stale: false,
      error: undefined,
    }));
  }

  /** Connects every server, at once. A server that fails is reported (event, status), not thrown. */
  async connect(): Promise<ServerStatus[]> {
    await Promise.all(this.#servers.map((state) => this.#connectOne(state)));
    this.#rebuild();
    return this.servers;
  }

  /** Every server and its state. */
  get servers(): ServerStatus[] {
    return this.#servers.map((state) => ({
      name: state.name,
      status: state.status,
      tools: state.tools.length,
      ...(state.error === undefined ? {} : { error: state.error.message }),
    }));
  }

  /** Every tool of the connected servers, under its model-facing name. */
  get tools(): HostTool[] {
    return [...this.#catalog.values()];
  }

  /** The client of a connected server. */
  client(server: string): Client | undefined {
    return this.#servers.find((state) => state.name === server)?.client;
  }

  /** What each server's tool definitions cost (the counter of `mcpkit budget`). */
  async toolCosts(): Promise<ToolCost[]> {
    const tokenizer = await this.#loadTokenizer();
    return this.#servers.map((state) => ({
      server: state.name,
      tools: state.tools.length,
      tokens: state.tools.reduce((sum, tool) => sum + tokenizer.count(serializeTool(tool)), 0),
    }));
  }

  /** Closes every connection (stdio servers stop). */
  async close(): Promise<void> {
    await Promise.all(this.#servers.map((state) => state.client?.close() ?? Promise.resolve()));
    for (const state of this.#servers) state.status = 'closed';
  }

  /**
   * Runs a conversation until the model answers without calling a tool, or `maxTurns` model
   * requests were made. Rejects with the signal's reason when cancelled, or a ModelError when
   * the model API fails; a tool's failure never rejects (it is an `is_error` result).
   */
  async run(messages: readonly HostMessage[], options: RunOptions = {}): Promise<RunResult> {
    const conversation: HostMessage[] = [...messages];
    const calls: CallRecord[] = [];
    const model = options.model ?? this.#options.modelName;
    const maxTurns = options.maxTurns ?? 20;
    const first = options.toolChoice ?? 'auto';
    const { signal } = options;
    const listener = options.onEvent;
    if (listener !== undefined) this.#runListeners.add(listener);
    // This run's steps go to the host's listener and this run's only.
    const emit = (event: HostEvent): void => {
      this.#options.onEvent?.(event);
      listener?.(event);
    };
    this.#modelName = model;
    const ids = callIds(messages);
    let turns = 0;
    let text = '';
    let stopReason: RunStopReason;
    try {
      for (;;) {
        signal?.throwIfAborted();
        if (turns >= maxTurns) {
          stopReason = 'max_turns';
          break;
        }
        await this.#refresh();
        const tools = await this.#activeTools();
        const toolChoice = turns === 0 || first === 'none' ? first : 'auto';
        emit({ type: 'model_request', turn: turns + 1, tools: tools.length });
        const response = await this.#ask(
          {
            model,
            ...(this.#options.system === undefined ? {} : { system: this.#options.system }),
            messages: conversation,
            tools,
            toolChoice: tools.length === 0 ? 'auto' : toolChoice,
            maxTokens: this.#options.maxTokens ?? 4096,
            stream: this.#options.stream ?? false,
          },
          {
            ...(signal === undefined ? {} : { signal }),
            onText: (delta) => {
              emit({ type: 'text_delta', text: delta });
            },
          },
        );
        turns++;
        stopReason = response.stopReason;
        if (response.content.length > 0) {
          conversation.push({ role: 'assistant', content: response.content });
        }
        text = response.content
          .filter((part): part is TextPart => part.type === 'text')
          .map((part) => part.text)
          .join('');
        if (text !== '') emit({ type: 'text', text });
        const requested = response.content.filter((p): p is ToolCallPart => p.type === 'tool_call');
        if (requested.length === 0) break;
        const results: Part[] = [];
        for (const part of requested) {
          const record = await this.#call(part, { signal, emit, ids });
          calls.push(record);
          results.push({
            type: 'tool_result',
            toolCallId: part.id,
            content: record.shaped.content,
            isError: record.shaped.isError,
          });
        }
        conversation.push({ role: 'user', content: results });
      }
      emit({ type: 'done', stopReason, turns });
      return { messages: conversation, text, turns, calls, stopReason };
    } finally {
      if (listener !== undefined) this.#runListeners.delete(listener);
    }
  }

  /** One model request; once cancelled, it rejects with the signal's reason whatever broke. */
  async #ask(request: ModelRequest, call: ModelCallOptions): Promise<ModelResponse> {
    try {
      return await this.#options.model.complete(request, call);
    } catch (error) {
      if (call.signal?.aborted === true) throw call.signal.reason;
      throw error;
    }
  }

  /** A server's event: to the host's listener and every run under way. */
  #emit(event: HostEvent): void {
    this.#options.onEvent?.(event);
    for (const listener of this.#runListeners) listener(event);
  }

  async #loadTokenizer(): Promise<Tokenizer> {
    this.#tokenizer ??= this.#options.tokenizer ?? (await loadTokenizerOrEstimate());
    return this.#tokenizer;
  }

  async #connectOne(state: ServerState): Promise<void> {
    state.status = 'connecting';
    const client = new Client(
      this.#options.clientInfo ?? { name: 'mcpkit-host', version: '0.1.0' },
      {
        onListChanged: (kind) => {
          if (kind !== 'tools') return;
          state.stale = true;
          this.#emit({ type: 'tools_changed', server: state.name });
        },
        onClose: () => {
          if (state.client === client && state.status === 'connected') state.status = 'closed';
        },
        onSample: this.#sampler(state.name),
        ...(this.#options.onElicit === undefined ? {} : { onElicit: this.#options.onElicit }),
        ...(this.#options.timeoutMs === undefined ? {} : { timeoutMs: this.#options.timeoutMs }),
      },
    );
    try {
      const onStderr = this.#options.onStderr;
      await client.connect(
        await createServerTransport(state.config, {
          ...(onStderr === undefined
            ? {}
            : {
                onStderr: (chunk) => {
                  onStderr(state.name, chunk);
                },
              }),
        }),
      );
      state.client = client;
      state.tools = await client.listTools();
      state.status = 'connected';
      state.stale = false;
      state.error = undefined;
      this.#emit({ type: 'server_connected', server: state.name, tools: state.tools.length });
    } catch (error) {
      await client.close().catch(() => undefined);
      state.status = 'failed';
      state.error = error instanceof Error ? error : new Error(String(error));
      this.#emit({ type: 'server_failed', server: state.name, error: state.error });
    }
  }

  /** Before a turn: relists the tools of servers that announced a change, reconnects closed ones. */
  async #refresh(): Promise<void> {
    const flags = { changed: false };
    await Promise.all(
      this.#servers.map(async (state) => {
        if (state.status === 'closed') {
          await this.#connectOne(state);
          flags.changed = true;
        } else if (state.status === 'connected' && state.stale && state.client !== undefined) {
          state.stale = false;
          try {
            state.tools = await state.client.listTools();
          } catch {
            state.stale = true;
          }
          flags.changed = true;
        }
      }),
    );
    if (flags.changed) this.#rebuild();
  }

  #rebuild(): void {
    const entries = this.#servers.flatMap((state) =>
      state.status === 'connected' ? state.tools.map((tool) => ({ server: state.name, tool })) : [],
    );
    const named = nameTools(
      entries.map((entry) => ({ server: entry.server, tool: entry.tool.name })),
    );
    this.#catalogTokens = undefined;
    this.#catalog = new Map(
      named.map((ref, index) => [
        ref.name,
        { name: ref.name, server: ref.server, tool: (entries[index] as { tool: Tool }).tool },
      ]),
    );
  }

  /** Every tool as the model sees it, or `search_tools` and what it loaded, above the budget. */
  async #activeTools(): Promise<ModelTool[]> {
    const all = [...this.#catalog.values()];
    const asModel = (entry: HostTool): ModelTool => ({
      name: entry.name,
      description: entry.tool.description ?? entry.tool.title ?? entry.tool.name,
      inputSchema: adaptInputSchema(entry.tool.inputSchema),
    });
    if (!(await this.#overBudget())) return all.map(asModel);
    const loaded = all.filter((entry) => this.#loaded.has(entry.name));
    const room = Math.max(0, this.#options.model.maxTools - 1);
    return [SEARCH_TOOLS_DEFINITION, ...loaded.slice(0, room).map(asModel)];
  }

  /** Whether the catalog is above the model API's tool limit or the tool budget. */
  async #overBudget(): Promise<boolean> {
    if (this.#catalog.size > this.#options.model.maxTools) return true;
    const budget = this.#options.toolBudget;
    if (budget === undefined) return false;
    const tokenizer = await this.#loadTokenizer();
    // Every model turn asks; the definitions are counted again only when the catalog changes.
    this.#catalogTokens ??= [...this.#catalog.values()].reduce(
      (sum, entry) => sum + tokenizer.count(serializeTool(entry.tool)),
      0,
    );
    return this.#catalogTokens > budget;
  }

  async #call(part: ToolCallPart, step: Step): Promise<CallRecord> {
    const { emit } = step;
    const entry = this.#catalog.get(part.name);
    const base = { id: part.id, name: part.name, arguments: part.arguments };
    emit({ type: 'tool_call', ...base, server: entry?.server, tool: entry?.tool.name });
    const reused = step.ids.has(part.id);
    step.ids.add(part.id);
    const problem =
      part.invalid ??
      (reused
        ? `its id "${part.id}" was already used by another tool call of this conversation`
        : undefined);
    let record: CallRecord;
    if (problem !== undefined) {
      const shaped = notRun(problem);
      const where = { server: entry?.server, tool: entry?.tool.name };
      record = { ...base, ...where, decision: 'declined', shaped };
    } else if (entry === undefined) {
      const shaped =
        part.name === SEARCH_TOOLS
          ? this.#search(part.arguments)
          : unknownTool(part.name, this.#catalog);
      record = { ...base, server: undefined, tool: undefined, decision: 'approved', shaped };
    } else {
      record = await this.#callServer(entry, part, step);
    }
    emit({
      type: 'tool_result',
      id: part.id,
      name: part.name,
      isError: record.shaped.isError,
      content: record.shaped.content,
      truncated: record.shaped.truncated !== undefined,
    });
    return record;
  }

  async #callServer(entry: HostTool, part: ToolCallPart, step: Step): Promise<CallRecord> {
    const { signal, emit } = step;
    const base = {
      id: part.id,
      name: part.name,
      arguments: part.arguments,
      server: entry.server,
      tool: entry.tool.name,
    };
    const annotations = entry.tool.annotations as Readonly<Record<string, unknown>> | undefined;
    const rule = ruleFor(this.#options.approval ?? {}, {
      name: entry.name,
      server: entry.server,
      tool: entry.tool.name,
      ...(annotations === undefined ? {} : { annotations }),
      trusted: this.#servers.find((state) => state.name === entry.server)?.config.trusted === true,
    });
    const decision = await decide(
      rule,
      {
        kind: 'tool',
        server: entry.server,
        tool: entry.tool.name,
        name: entry.name,
        arguments: part.arguments,
        ...(annotations === undefined ? {} : { annotations }),
      },
      this.#options.onApproval,
    );
    emit({ type: 'approval', id: part.id, name: part.name, decision });
    if (decision === 'declined') return { ...base, decision, shaped: declinedResult() };
    const client = this.client(entry.server);
    if (client === undefined) {
      return {
        ...base,
        decision,
        error: 'not connected',
        shaped: errorResult(new Error(`server "${entry.server}" is not connected`)),
      };
    }
    let result: CallToolResult;
    try {
      result = await client.callTool(
        entry.tool.name,
        part.arguments,
        signal === undefined ? {} : { signal },
      );
    } catch (error) {
      if (signal?.aborted === true) throw signal.reason;
      const message = error instanceof Error ? error.message : String(error);
      return { ...base, decision, error: message, shaped: errorResult(error) };
    }
    const maxChars = entry.tool._meta?.[MAX_RESULT_CHARS_META];
    const shaped = await shapeResult(result, {
      capabilities: this.#capabilities(),
      tokenizer: await this.#loadTokenizer(),
      maxTokens: this.#options.resultTokens ?? DEFAULT_RESULT_TOKENS,
      ...(typeof maxChars === 'number' && maxChars > 0 ? { maxChars } : {}),
      ...(this.#options.resolveResourceLinks === true
        ? {
            readResource: (uri: string) =>
              client.readResource(uri, signal === undefined ? {} : { signal }),
          }
        : {}),
    });
    return { ...base, decision, result, shaped };
  }

  #capabilities(): ModelCapabilities {
    return { vision: true, audio: false, ...this.#options.capabilities };
  }

  /** Runs search_tools: loads the matching tools for the next turns. */
  #search(args: Record<string, unknown>): ShapedResult {
    const query = typeof args['query'] === 'string' ? args['query'] : '';
    const limit = typeof args['limit'] === 'number' ? Math.min(20, Math.floor(args['limit'])) : 5;
    const found = searchTools(
      [...this.#catalog.values()].map((entry) => ({
        name: entry.name,
        server: entry.server,
        description: entry.tool.description ?? '',
      })),
      query,
      limit,
    );
    for (const tool of found) this.#loaded.add(tool.name);
    const text =
      found.length === 0
        ? `No tool matches "${query}". Try other keywords.`
        : `These tools are now available to call:\n${found.map((t) => `- ${t.name} (${t.server}): ${t.description}`).join('\n')}`;
    return { content: [{ type: 'text', text }], isError: false };
  }

  /** Answers a server's sampling request with the host's model, after the approval gate. */
  #sampler(server: string): SampleHandler {
    return async (params, ctx: InputContext) => {
      const summary = params.messages.map((m) => samplingText(m.content)).join('\n');
      const decision = await decide(
        this.#options.approval?.sampling ?? 'ask',
        { kind: 'sampling', server, summary },
        this.#options.onApproval,
      );
      this.#emit({ type: 'sampling', server, decision });
      if (decision === 'declined')
        throw new JsonRpcError(-1, 'the user declined the sampling request');
      const response = await this.#options.model.complete(
        {
          model: this.#modelName,
          ...(params.systemPrompt === undefined ? {} : { system: params.systemPrompt }),
          messages: params.messages.map((m) => ({
            role: m.role,
            content: samplingParts(m.content),
          })),
          tools: [],
          toolChoice: 'auto',
          maxTokens: params.maxTokens,
          stream: false,
          ...(params.temperature === undefined ? {} : { temperature: params.temperature }),
          ...(params.stopSequences === undefined ? {} : { stopSequences: params.stopSequences }),
        },
        { signal: ctx.signal },
      );
      const text = response.content
        .filter((part): part is TextPart => part.type === 'text')
        .map((part) => part.text)
        .join('');
      return {
        role: 'assistant',
        content: { type: 'text', text },
        model: response.model ?? this.#modelName,
        stopReason:
          response.stopReason === 'max_tokens'
            ? 'maxTokens'
            : response.stopReason === 'stop_sequence'
              ? 'stopSequence'
              : 'endTurn',
      };
    };
  }
}

type SamplingContent = Parameters<SampleHandler>[0]['messages'][number]['content'];

function samplingBlocks(content: SamplingContent): Exclude<SamplingContent, unknown[]>[] {
  return Array.isArray(content) ? content : [content];
}

function samplingText(content: SamplingContent): string {
  return samplingBlocks(content)
    .map((block) => (block.type === 'text' ? block.text : `[${block.type}]`))
    .join(' ');
}

function samplingParts(content: SamplingContent): Part[] {
  return samplingBlocks(content).map((block): Part => {
    switch (block.type) {
      case 'text':
        return { type: 'text', text: block.text };
      case 'image':
        return { type: 'image', data: block.data, mimeType: block.mimeType };
      case 'audio':
        return { type: 'audio', data: block.data, mimeType: block.mimeType };
      case 'tool_use':
      case 'tool_result':
        return { type: 'text', text: JSON.stringify(block) };
    }
  });
}

/** The ids of the tool calls in `messages`. */
function callIds(messages: readonly HostMessage[]): Set<string> {
  const ids = new Set<string>();
  for (const message of messages) {
    if (typeof message.content === 'string') continue;
    for (const part of message.content) if (part.type === 'tool_call') ids.add(part.id);
  }
  return ids;
}

/** The answer to a malformed call, which was not run. */
function notRun(problem: string): ShapedResult {
  return {
    content: [{ type: 'text', text: `Error: this tool call was not run: ${problem}` }],
    isError: true,
  };
}

function unknownTool(name: string, catalog: ReadonlyMap<string, HostTool>): ShapedResult {
  const names = [...catalog.keys()].slice(0, 50).join(', ');
  return {
    content: [
      {
        type: 'text',
        text: `Error: there is no tool "${name}"; the tools are: ${names === '' ? '(none)' : names}`,
      },
    ],
    isError: true,
  };
}
