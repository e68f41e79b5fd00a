// The inspector's one MCP connection and all the page sees of it: its State (views.ts: server,
// lists, budget, lint, roots), operations (ops.ts), questions (questions.ts), events to pages.
import { setTimeout as sleep } from 'node:timers/promises';
import type {
  CallOptions,
  CallToolResult,
  ClientOptions,
  LoggingLevel,
  Prompt,
  Resource,
  ResourceTemplate,
  Root,
  Tool,
} from '../../client/index.js';
import { Client } from '../../client/index.js';
import type { Tokenizer } from '../../catalogue/index.js';
import { loadTokenizerOrEstimate } from '../../catalogue/index.js';
import { appsClient } from '../../ext/apps/index.js';
import type { Transport } from '../../jsonrpc/index.js';
import type { HttpAuthorizer, ProtocolRevision } from '../../protocol/index.js';
import { createStreamableHttpClientTransport } from '../../transports/http/index.js';
import { createStdioClientTransport } from '../../transports/stdio/index.js';
import type { Target } from '../target.js';
import { hasAuthorization, spawnOptions, targetLabel } from '../target.js';
import { formatTranscript } from '../transcript.js';
import { tasksOf, withTasks } from '../tasks-api.js';
import { version } from '../version.js';
import { ApiError } from './api-error.js';
import type { Envelope, State } from './views.js';
import { failure, messageOf } from './views.js';
import type { EventHub } from './events.js';
import type { ListName, OpContext } from './ops.js';
import { OPS, emptyLists, listOf } from './ops.js';
import { parseRoots, targetForLabel, targetView } from './inputs.js';
import { measureTools, outputCheck } from './measure.js';
import { Questions } from './questions.js';
import type { WireLog } from './wire-log.js';
import { logFetch, logTransport } from './wire-log.js';

/** Options of {@link InspectorSession}. */
export interface SessionOptions {
  readonly log: WireLog;
  readonly hub: EventHub;
  readonly allowStdio: boolean;
  readonly mode: 'auto' | ProtocolRevision;
  /** Timeout of each request. Default 60 000 ms. */
  readonly timeoutMs?: number;
  /** How long a question of the server waits for the page. Default: `timeoutMs`. */
  readonly questionTimeoutMs?: number;
  /** Where a stdio server's stderr goes, besides the page's log. */
  readonly stderr?: (chunk: string) => void;
  /** Authorization of URL targets given no `Authorization` header (see InspectorOptions). */
  readonly auth?: UrlAuth;
}

/**
 * Authorizes a URL target: the authorizer of its requests (the CLI's OAuth client), and how
 * long connecting may take when a sign-in may be needed first.
 */
export type UrlAuth = (url: string) => { authorizer: HttpAuthorizer; connectTimeoutMs?: number };

const DEFAULT_TIMEOUT_MS = 60_000;
const TERMINAL = new Set(['completed', 'failed', 'cancelled']);

/** The inspector's connection to one server at a time. */
export class InspectorSession {
  readonly #options: SessionOptions;
  readonly #timeoutMs: number;
  #client: Client | undefined;
  /** The client still connecting, closed when another connection replaces it. */
  #connectingClient: Client | undefined;
  #target: Target | undefined;
  #mode: 'auto' | ProtocolRevision;
  #connecting = false;
  #error: string | undefined;
  /** Counts connections: events of an older one are ignored. */
  #generation = 0;
  /** The stamp of the last State taken (State.stamp). */
  #stamps = 0;
  /** The first wire entry of the current connection (the transcript starts there). */
  #firstSeq = 1;
  #lists: Record<ListName, unknown[]> = emptyLists();
  #budget: State['budget'];
  #lint: State['lint'];
  #roots: Root[] = [];
  #logLevel: string | undefined;
  #tokenizer: Promise<Tokenizer> | undefined;
  readonly #questions: Questions;
  readonly #ops = new Map<string, AbortController>();
  readonly #watched = new Set<string>();

  constructor(options: SessionOptions) {
    this.#options = options;
    this.#mode = options.mode;
    this.#timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.#questions = new Questions(options.hub, options.questionTimeoutMs ?? this.#timeoutMs);
  }

  /** The State the page renders. */
  state(): State {
    const client = this.#client;
    const connected = client?.isConnected === true;
    const state: State = {
      stamp: ++this.#stamps,
      connected,
      connecting: this.#connecting,
      allowStdio: this.#options.allowStdio,
      mode: this.#mode,
      tools: this.#lists.tools as Tool[],
      resources: this.#lists.resources as Resource[],
      resourceTemplates: this.#lists.resourceTemplates as ResourceTemplate[],
      prompts: this.#lists.prompts as Prompt[],
      roots: this.#roots,
    };
    if (this.#target !== undefined) state.target = targetView(this.#target);
    if (client !== undefined && connected) {
      state.connection = this.#generation;
      state.revision = client.revision;
      state.era = client.era;
      if (client.serverInfo !== undefined) state.serverInfo = client.serverInfo;
      state.capabilities = client.serverCapabilities;
      if (client.instructions !== undefined) state.instructions = client.instructions;
    }
    if (this.#budget !== undefined) state.budget = this.#budget;
    if (this.#lint !== undefined) state.lint = this.#lint;
    if (this.#logLevel !== undefined) state.logLevel = this.#logLevel;
    if (this.#error !== undefined) state.error = this.#error;
    return state;
  }

  /** Names the current connection: it changes with each connect and disconnect. */
  get connection(): number {
    return this.#generation;
  }

  /** The questions waiting for an answer, as the events that asked them. */
  pendingEvents(): ['elicit' | 'sample', unknown][] {
    return this.#questions.events();
  }

  /**
   * Connects to `target` (closing the connection before). Resolves with the State, also when
   * the server could not be reached (then `error` says why). A command target needs allowStdio.
   */
  async connect(target: Target, mode: 'auto' | ProtocolRevision = this.#mode): Promise<State> {
    if (target.kind === 'command' && !this.#options.allowStdio) {
      throw new ApiError(403, 'stdio targets need mcpkit inspect --allow-stdio');
    }
    await this.#drop();
    const generation = ++this.#generation;
    this.#target = target;
    this.#mode = mode;
    this.#connecting = true;
    this.#error = undefined;
    this.#firstSeq = this.#options.log.nextSeq;
    this.#broadcastState();
    const client = new Client(
      { name: 'mcpkit-inspector', version: version() },
      this.#clientOptions(generation),
    );
    // An MCP Apps host in every revision; apps.ts reads and checks the views (uncached).
    withTasks(client).extend(appsClient());
    this.#connectingClient = client;
    try {
      const auth = this.#authFor(target);
      const transport = logTransport(
        this.#transport(target, { generation, auth }),
        this.#options.log,
      );
      await client.connect(
        transport,
        auth?.connectTimeoutMs === undefined ? {} : { timeoutMs: auth.connectTimeoutMs },
      );
      if (generation !== this.#generation) {
        await client.close();
        return this.state();
      }
      this.#client = client;
      await this.#refreshAll(generation);
    } catch (error) {
      if (generation === this.#generation) {
        this.#error = `could not connect to ${targetLabel(target)}: ${messageOf(error)}`;
        this.#client = undefined;
      }
      await client.close().catch(() => undefined);
    } finally {
      if (this.#connectingClient === client) this.#connectingClient = undefined;
      if (generation === this.#generation) this.#connecting = false;
    }
    this.#broadcastState();
    return this.state();
  }

  /** Closes the connection, if any. */
  async disconnect(): Promise<State> {
    this.#generation++;
    await this.#drop();
    this.#connecting = false;
    this.#broadcastState();
    return this.state();
  }

  /** Runs one operation of POST /api/request. */
  async request(
    op: string,
    params: Record<string, unknown>,
    options: { opId?: string; timeoutMs?: number } = {},
  ): Promise<Envelope> {
    const run = Object.hasOwn(OPS, op) ? OPS[op] : undefined;
    if (run === undefined) {
      throw new ApiError(400, `unknown op "${op}"; the ops are ${Object.keys(OPS).join(', ')}`);
    }
    const client = this.#client;
    if (client === undefined || !client.isConnected) {
      throw new ApiError(409, 'not connected to a server: connect first');
    }
    const { opId } = options;
    if (opId !== undefined && this.#ops.has(opId)) {
      throw new ApiError(409, `opId "${opId}" is already running`);
    }
    const abort = new AbortController();
    if (opId !== undefined) this.#ops.set(opId, abort);
    const call: CallOptions = {
      signal: abort.signal,
      ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
      ...(opId === undefined
        ? {}
        : {
            onProgress: (progress: number, total?: number, message?: string) => {
              this.#options.hub.broadcast('progress', {
                opId,
                progress,
                ...(total === undefined ? {} : { total }),
                ...(message === undefined ? {} : { message }),
              });
            },
          }),
    };
    try {
      const result = await run(params, this.#opContext(client, call));
      if (op === 'callTool' && !('task' in (result as object))) {
        const tool = (this.#lists.tools as Tool[]).find((t) => t.name === params['name']);
        const check = outputCheck(tool, result as CallToolResult);
        return check === undefined
          ? { ok: true, result }
          : { ok: true, result, outputCheck: check };
      }
      return { ok: true, result };
    } catch (error) {
      if (error instanceof ApiError) throw error;
      return failure(error, abort.signal.aborted);
    } finally {
      if (opId !== undefined) this.#ops.delete(opId);
    }
  }

  /** Cancels a running operation. False when no operation has that id. */
  cancel(opId: string): boolean {
    const abort = this.#ops.get(opId);
    if (abort === undefined) return false;
    abort.abort(new Error('cancelled from the inspector'));
    return true;
  }

  /**
   * Answers a pending question: `result` (an ElicitResult or a CreateMessageResult), or
   * `error` to refuse a sampling request. Throws ApiError(404) for an unknown id.
   */
  answer(requestId: string, body: Record<string, unknown>): void {
    this.#questions.answer(requestId, body);
  }

  /** Sets the roots offered to the server, and tells it they changed. */
  async setRoots(value: unknown): Promise<State> {
    this.#roots = parseRoots(value);
    const client = this.#client;
    if (client?.isConnected === true) {
      await client.rootsChanged().catch((error: unknown) => {
        this.#error = `could not tell the server the roots changed: ${messageOf(error)}`;
      });
    }
    this.#broadcastState();
    return this.state();
  }

  /** The current (or last) connection's JSON-RPC messages in the golden transcript format. */
  transcript(): string {
    const entries = this.#options.log
      .entries()
      .filter((e) => e.kind === 'jsonrpc' && e.channel === undefined && e.seq >= this.#firstSeq);
    const dropped = this.#options.log.entries()[0]?.seq ?? 1;
    const header = [
      `# mcpkit inspect transcript of ${this.#target === undefined ? '(no server)' : targetLabel(targetForLabel(this.#target))}`,
      `# recorded ${new Date().toISOString()}`,
    ];
    if (dropped > this.#firstSeq) {
      header.push('# note: the wire log keeps 2000 entries; the start of this session is missing');
    }
    return formatTranscript({
      header,
      revision: this.#client?.revision ?? revisionOf(entries) ?? 'unknown',
      messages: entries.flatMap((entry) =>
        entry.kind === 'jsonrpc' ? [{ dir: entry.dir, message: entry.message }] : [],
      ),
    });
  }

  /** Closes the connection and refuses every pending question. */
  async close(): Promise<void> {
    this.#generation++;
    await this.#drop();
  }

  #opContext(client: Client, call: CallOptions): OpContext {
    return {
      client,
      call,
      refreshed: (kind, items) => {
        this.#lists[kind] = items;
        if (kind === 'tools')
          void this.#measure(this.#generation).then(() => {
            this.#broadcastState();
          });
        else this.#broadcastState();
      },
      watchTask: (task) => {
        this.#watchTask(client, task.taskId, this.#generation);
      },
      logLevelSet: (level: LoggingLevel) => {
        this.#logLevel = level;
        this.#broadcastState();
      },
    };
  }

  #clientOptions(generation: number): ClientOptions {
    const current = () => generation === this.#generation;
    const hub = this.#options.hub;
    return {
      mode: this.#mode === 'auto' ? 'auto' : { pin: this.#mode },
      timeoutMs: this.#timeoutMs,
      // Results are shown as they came, with the outputSchema check beside them (outputCheck).
      validator: { compile: () => () => ({ valid: true, issues: [] }) },
      elicitation: { url: true },
      onElicit: (params, ctx) => this.#questions.ask('elicit', params, ctx.signal) as never,
      onSample: (params, ctx) => this.#questions.ask('sample', params, ctx.signal) as never,
      onRoots: () => this.#roots,
      onLog: (params) => {
        if (current()) hub.broadcast('log', params);
      },
      onListChanged: (kind) => {
        if (!current()) return;
        hub.broadcast('list_changed', { kind });
        void this.#refresh(generation, kind).then(() => {
          this.#broadcastState();
        });
      },
      onResourceUpdated: (uri) => {
        if (current()) hub.broadcast('resource_updated', { uri, time: Date.now() });
      },
      onClose: (error) => {
        if (!current() || this.#client === undefined) return;
        this.#client = undefined;
        this.#error = `the connection closed${error === undefined ? '' : `: ${error.message}`}`;
        this.#broadcastState();
      },
    };
  }

  /** The authorization of a URL target given no Authorization header, when there is one. */
  #authFor(target: Target): ReturnType<UrlAuth> | undefined {
    if (target.kind !== 'url' || this.#options.auth === undefined) return undefined;
    return hasAuthorization(target) ? undefined : this.#options.auth(target.url);
  }

  #transport(
    target: Target,
    { generation, auth }: { generation: number; auth: ReturnType<UrlAuth> | undefined },
  ): Transport {
    if (target.kind === 'url') {
      return createStreamableHttpClientTransport(target.url, {
        headers: { ...target.headers },
        fetch: logFetch(this.#options.log),
        ...(auth === undefined ? {} : { auth: auth.authorizer }),
      });
    }
    return createStdioClientTransport({
      ...spawnOptions(target),
      onStderr: (chunk) => {
        this.#options.stderr?.(chunk);
        if (generation === this.#generation) {
          this.#options.hub.broadcast('log', { level: 'info', logger: 'stderr', data: chunk });
        }
      },
    });
  }

  async #drop(): Promise<void> {
    for (const abort of this.#ops.values()) abort.abort(new Error('disconnected'));
    this.#ops.clear();
    this.#questions.refuseAll('the inspector disconnected');
    this.#watched.clear();
    const connecting = this.#connectingClient;
    this.#connectingClient = undefined;
    if (connecting !== undefined) await connecting.close().catch(() => undefined);
    const client = this.#client;
    this.#client = undefined;
    this.#lists = emptyLists();
    this.#budget = undefined;
    this.#lint = undefined;
    if (client !== undefined) await client.close().catch(() => undefined);
  }

  async #refreshAll(generation: number): Promise<void> {
    await Promise.all(
      (['tools', 'resources', 'resourceTemplates', 'prompts'] as const).map((kind) =>
        this.#refresh(generation, kind === 'resourceTemplates' ? 'resources' : kind, kind),
      ),
    );
  }

  /** Lists `kind` again (templates with resources), when the server has that capability. */
  async #refresh(
    generation: number,
    capability: 'tools' | 'resources' | 'prompts',
    only?: ListName,
  ): Promise<void> {
    const client = this.#client;
    if (client === undefined || generation !== this.#generation) return;
    const capabilities = client.serverCapabilities as Record<string, unknown>;
    if (capabilities[capability] === undefined) return;
    const kinds: ListName[] =
      only !== undefined
        ? [only]
        : capability === 'resources'
          ? ['resources', 'resourceTemplates']
          : [capability];
    for (const kind of kinds) {
      try {
        const items = await listOf(client, kind);
        if (generation !== this.#generation) return;
        this.#lists[kind] = items;
      } catch (error) {
        if (generation === this.#generation)
          this.#error = `listing ${kind} failed: ${messageOf(error)}`;
      }
    }
    if (kinds.includes('tools')) await this.#measure(generation);
  }

  /** Counts each tool's tokens (as mcpkit budget does) and lints the tools (as mcpkit lint). */
  async #measure(generation: number): Promise<void> {
    this.#tokenizer ??= loadTokenizerOrEstimate();
    const tokenizer = await this.#tokenizer;
    if (generation !== this.#generation) return;
    const measured = measureTools(
      this.#lists.tools as Tool[],
      this.#client?.instructions,
      tokenizer,
    );
    this.#budget = measured.budget;
    this.#lint = measured.lint;
  }

  /** Polls a task the page started, sending `task` events until it ends or the session does. */
  #watchTask(client: Client, taskId: string, generation: number): void {
    if (this.#watched.has(taskId)) return;
    this.#watched.add(taskId);
    const poll = async (): Promise<void> => {
      while (generation === this.#generation && this.#watched.has(taskId)) {
        let task;
        try {
          task = await tasksOf(client).getTask(taskId);
        } catch {
          break;
        }
        if (generation !== this.#generation) break;
        this.#options.hub.broadcast('task', { task });
        if (TERMINAL.has(task.status)) break;
        const pause = Math.min(Math.max(task.pollIntervalMs ?? 1000, 200), 5000);
        await sleep(pause, undefined, { ref: false });
      }
      this.#watched.delete(taskId);
    };
    void poll();
  }

  #broadcastState(): void {
    this.#options.hub.broadcast('state', this.state());
  }
}

function revisionOf(entries: readonly { kind: string; revision?: string }[]): string | undefined {
  for (let i = entries.length - 1; i >= 0; i--) {
    const revision = entries[i]?.revision;
    if (revision !== undefined) return revision;
  }
  return undefined;
}
