// The contract of `npm run bench:context`: a workload of servers and scripted tasks, a fake model
// endpoint that counts what each request puts in the model's context, and the modes (eager,
// search_tools, deferred, code mode) that each play a task and report its input tokens.
import type { ServerConfig, Tokenizer } from '../../src/host/index.js';

/** One step of a task's plan: a tool call, and the keywords a model would search for it with. */
export interface TaskStep {
  /** The workload's server name. */
  readonly server: string;
  /** The MCP tool name on that server. */
  readonly tool: string;
  readonly arguments: Record<string, unknown>;
  /** Keywords for search_tools / the API's tool search. */
  readonly query: string;
}

/** A scripted multi-step task. */
export interface Task {
  readonly id: string;
  readonly prompt: string;
  /** Played in order, one model turn each (eager; a search turn more each in search_tools). */
  readonly steps: readonly TaskStep[];
  /** The final text the fake model says. */
  readonly answer: string;
  /** The large SQL-result task (code mode's target: the rows never enter the context). */
  readonly dataHeavy?: boolean;
}

/** The servers and tasks. */
export interface Workload {
  /** Fifteen in-process servers (each a `{ transport() }` entry). */
  readonly servers: Readonly<Record<string, ServerConfig>>;
  readonly tasks: readonly Task[];
  /** The number of tools of all servers (as a host sees them). */
  readonly toolCount: number;
  close(): Promise<void>;
}

/** What one mode measured over one task. */
export interface ModeRun {
  /** Model requests made. */
  readonly requests: number;
  /** Sum over the requests of the tokens each put in the model's context (see endpoint.ts). */
  readonly inputTokens: number;
  /** Sum over the requests of the tokens of the whole body as sent. */
  readonly wireTokens: number;
  /** The plan completed: every step ran without an error, and the final answer was given. */
  readonly ok: boolean;
  readonly note?: string;
}

/** One model turn of a script. */
export interface EndpointReply {
  readonly text?: string;
  readonly toolCalls?: readonly {
    readonly name: string;
    readonly arguments: Record<string, unknown>;
  }[];
  /** Raw Messages content blocks put before the tool calls (server_tool_use, tool_search_tool_result). */
  readonly blocks?: readonly Record<string, unknown>[];
}

/** A step of a script: a reply, or a function of the request body. */
export type EndpointStep = EndpointReply | ((body: Record<string, unknown>) => EndpointReply);

/** A fake Anthropic Messages endpoint on 127.0.0.1 (see endpoint.ts). */
export interface Endpoint {
  /** ANTHROPIC_BASE_URL. */
  readonly url: string;
  /** Every request body, in order. */
  readonly bodies: unknown[];
  /** Per request: the tokens it put in the model's context. */
  readonly tokens: number[];
  /** Per request: the tokens of the whole body. */
  readonly wireTokens: number[];
  /** Problems: requests the script could not answer. */
  readonly problems: string[];
  close(): Promise<void>;
}

/** What a mode gets. */
export interface BenchContext {
  readonly workload: Workload;
  /** o200k_base (gpt-tokenizer), or the 4-characters estimate without it. */
  readonly tokenizer: Tokenizer;
  startEndpoint(script: readonly EndpointStep[]): Promise<Endpoint>;
}

/** What each module of modes/ exports as `mode`. */
export interface ContextMode {
  /** The column title. */
  readonly name: string;
  run(task: Task, context: BenchContext): Promise<ModeRun>;
  /** Markdown lines printed and written under the table (e.g. a sandbox's overhead). */
  extra?(context: BenchContext): Promise<string>;
}
