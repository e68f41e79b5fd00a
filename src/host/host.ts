// The host: connects a model to many MCP servers. It lists every server's tools, gives the model
// their definitions under one namespace, runs the calls the model asks for (after the approval
// gate), shapes each result into a tool_result, and loops until the model answers. Servers'
// sampling requests are answered by the same model; elicitations go to a callback.
import type { CallToolResult, Client, Tool } from '../client/index.js';
import { hostClient } from './client.js';
import type { ServerConfig, Tokenizer } from '../catalogue/index.js';
import {
  SEARCH_TOOLS,
  createServerTransport,
  isModelVisible,
  loadTokenizerOrEstimate,
  nameTools,
  serializeTool,
  uiResourceUri,
} from '../catalogue/index.js';
import { approveToolCall } from './approval.js';
import { callIds } from './call-ids.js';
import { CODE_TOOL, codeModeOf } from './code-mode.js';
import type {
  CallRecord,
  HostEvent,
  HostOptions,
  HostTool,
  RunOptions,
  RunResult,
  RunStopReason,
  ServerStatus,
  ToolCost,
} from './host-types.js';
import type { SamplingHost } from './sampling.js';
import { hostSampler } from './sampling.js';
import { runSearchTools } from './search-tools.js';
import { READ_RESULT, READ_RESULT_DEFINITION, ResultStore, handOffSettings } from './handoff.js';
import type { ToolPlan } from './tool-plan.js';
import { planTools } from './tool-plan.js';
import {
  DEFAULT_RESULT_TOKENS,
  MAX_RESULT_CHARS_META,
  declinedResult,
  errorResult,
  notRun,
  shapeResult,
  unknownTool,
} from './shape.js';
import type {
  HostMessage,
  ModelCallOptions,
  ModelCapabilities,
  ModelRequest,
  ModelResponse,
  Part,
  TextPart,
  ToolCallPart,
} from './types.js';
import type { CallView } from './views.js';
import { APPS_CAPABILITIES, ViewCache, viewBytes } from './views.js';
import { messageOf } from '../internal/message-of.js';

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
  /** The views read over the current connection (with `views` on). */
  views: ViewCache | undefined;
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
  /** Results handed off (handoff.ts), read by the model with read_result. */
  readonly #results: ResultStore;
  /** Tools found by search_tools, kept for later turns and runs. */
  readonly #loaded = new Set<string>();
  #tokenizer: Tokenizer | undefined;
  /** The `onEvent` of the runs under way, for the events of servers (list changes, sampling). */
  readonly #runListeners = new Set<(event: HostEvent) => void>();
  #modelName: string;
  /** What the sampling handlers of the servers read of this host. */
  readonly #samplingHost: SamplingHost;
  /** The most bytes of a view kept on a call record; undefined: views off. */
  readonly #viewBytes: number | undefined;
  readonly #code: ReturnType<typeof codeModeOf>;

  constructor(options: HostOptions) {
    this.#options = options;
    this.#code = codeModeOf(options, (server) => this.client(server));
    this.#modelName = options.modelName;
    this.#viewBytes = viewBytes(options.views);
    const handOff = typeof options.handOff === 'object' ? options.handOff : {};
    this.#results = new ResultStore(handOff.maxChars);
    this.#samplingHost = {
      options,
      modelName: () => this.#modelName,
      emit: (event) => {
        this.#emit(event);
      },
    };
    this.#servers = Object.entries(options.servers ?? {}).map(([name, config]) => ({
      name,
      config,
      client: undefined,
      status: 'connecting',
      tools: [],
      views: undefined,
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

  /** What each server's tool definitions cost (as `mcpkit budget` counts), app-only ones aside. */
  async toolCosts(): Promise<ToolCost[]> {
    const tokenizer = await this.#loadTokenizer();
    return this.#servers.map((state) => {
      const tools = state.tools.filter(isModelVisible);
      const tokens = tools.reduce((sum, tool) => sum + tokenizer.count(serializeTool(tool)), 0);
      return { server: state.name, tools: tools.length, tokens };
    });
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
        const { tools, toolSearch } = await this.#activeTools();
        const toolChoice = turns === 0 || first === 'none' ? first : 'auto';
        emit({ type: 'model_request', turn: turns + 1, tools: tools.length });
        const response = await this.#ask(
          {
            model,
            ...(this.#options.system === undefined ? {} : { system: this.#options.system }),
            messages: conversation,
            tools,
            toolChoice: tools.length === 0 ? 'auto' : toolChoice,
            ...(toolSearch === undefined ? {} : { toolSearch }),
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
        if (requested.length === 0 && response.stopReason !== 'pause') break; // pause: ask again
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
    const client = hostClient(this.#options, {
      onListChanged: (kind) => {
        if (kind !== 'tools') return;
        state.stale = true;
        this.#emit({ type: 'tools_changed', server: state.name });
      },
      onClose: () => {
        if (state.client === client && state.status === 'connected') state.status = 'closed';
      },
      onSample: hostSampler(state.name, this.#samplingHost),
      ...(this.#options.onElicit === undefined ? {} : { onElicit: this.#options.onElicit }),
      ...(this.#options.timeoutMs === undefined ? {} : { timeoutMs: this.#options.timeoutMs }),
      ...(this.#viewBytes === undefined ? {} : { capabilities: APPS_CAPABILITIES }),
    });
    try {
      const { onStderr, fetch } = this.#options;
      await client.connect(
        await createServerTransport(state.config, {
          ...(fetch === undefined ? {} : { fetch }),
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
      const bytes = this.#viewBytes;
      state.views = bytes === undefined ? undefined : new ViewCache(client, bytes);
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
    // App-only tools (MCP Apps visibility ["app"]) are for views to call, never the model.
    const entries = this.#servers.flatMap((state) =>
      state.status === 'connected'
        ? state.tools.filter(isModelVisible).map((tool) => ({ server: state.name, tool }))
        : [],
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

  /** The tools of a turn: every definition, deferred ones, or `search_tools` (tool-plan.ts). */
  async #activeTools(): Promise<ToolPlan> {
    if (this.#code !== undefined) {
      return { mode: 'eager', tools: [this.#code.definition(this.#catalog)] };
    }
    const plan = await planTools({
      catalog: [...this.#catalog.values()],
      loaded: this.#loaded,
      adapter: this.#options.model,
      toolBudget: this.#options.toolBudget,
      defer: this.#options.deferLoading,
      tokens: async () => {
        const tokenizer = await this.#loadTokenizer();
        // Every turn asks; the definitions are counted again only when the catalog changes.
        this.#catalogTokens ??= [...this.#catalog.values()].reduce(
          (sum, entry) => sum + tokenizer.count(serializeTool(entry.tool)),
          0,
        );
        return this.#catalogTokens;
      },
    });
    // Once a result was handed off, read_result comes last (a deferred list changes that once).
    return this.#results.used ? { ...plan, tools: [...plan.tools, READ_RESULT_DEFINITION] } : plan;
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
    } else if (entry === undefined && part.name === CODE_TOOL && this.#code !== undefined) {
      record = await this.#code.run(part, this.#catalog, step);
    } else if (entry === undefined) {
      const shaped =
        part.name === SEARCH_TOOLS
          ? runSearchTools(part.arguments, this.#catalog, this.#loaded)
          : part.name === READ_RESULT && this.#results.used
            ? await this.#results.read(part.arguments)
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
      ...(record.view === undefined ? {} : { view: record.view }),
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
    const decision = await approveToolCall(this.#options.approval ?? {}, this.#options.onApproval, {
      name: entry.name,
      server: entry.server,
      tool: entry.tool.name,
      arguments: part.arguments,
      ...(annotations === undefined ? {} : { annotations }),
      trusted: this.#servers.find((state) => state.name === entry.server)?.config.trusted === true,
    });
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
      const message = messageOf(error);
      return { ...base, decision, error: message, shaped: errorResult(error) };
    }
    const maxChars = entry.tool._meta?.[MAX_RESULT_CHARS_META];
    const read = (uri: string) => client.readResource(uri, signal === undefined ? {} : { signal });
    const handOff = handOffSettings(this.#options.handOff, this.#results, read);
    const shaped = await shapeResult(result, {
      ...(handOff === undefined ? {} : { handOff }),
      capabilities: this.#capabilities(),
      tokenizer: await this.#loadTokenizer(),
      maxTokens: this.#options.resultTokens ?? DEFAULT_RESULT_TOKENS,
      ...(typeof maxChars === 'number' && maxChars > 0 ? { maxChars } : {}),
      ...(this.#options.resolveResourceLinks === true ? { readResource: read } : {}),
    });
    const view = await this.#viewOf(entry, signal);
    return { ...base, decision, result, shaped, ...(view === undefined ? {} : { view }) };
  }

  /** The view of a tool that ran, when it links one and views are on. */
  async #viewOf(entry: HostTool, signal: AbortSignal | undefined): Promise<CallView | undefined> {
    const uri = uiResourceUri(entry.tool);
    const cache = this.#servers.find((state) => state.name === entry.server)?.views;
    if (uri === undefined || cache === undefined) return undefined;
    return cache.view(uri, signal);
  }

  #capabilities(): ModelCapabilities {
    return { vision: true, audio: false, ...this.#options.capabilities };
  }
}
