// Code mode in the gateway (`codeMode` of GatewayOptions): downstream clients are offered one
// tool, `run_code`, whose description declares every upstream tool (one namespace per upstream);
// the code's tool calls are forwarded like direct calls (the downstream request's elicitation,
// sampling and cancellation reach it through the gateway's routing). App-only tools stay served
// for views. The definition is registered again only when the declarations change.
import type { CallToolResult } from '../client/index.js';
import type { CodeApi, CodeModeTool, SandboxLimits } from '../code-mode/index.js';
import { CODE_TOOL, buildCodeApi, runCodeTool } from '../code-mode/index.js';
import type { HandlerContext, McpServer, ToolResult } from '../server/index.js';
import type { Handle, ServedTool } from './served.js';

/** Options of code mode in the gateway: the sandbox's limits, when to index declarations. */
export interface GatewayCodeModeOptions extends SandboxLimits {
  /** Above this many characters of declarations, the code searches them. Default 24,000. */
  readonly maxDeclarationChars?: number;
}

/** A tool call of the code: within the downstream request `ctx`, and the run's `signal`. */
export interface CodeCall {
  readonly ctx: HandlerContext;
  /** Aborts when the run ends before the call does (a limit, an error, the request cancelled). */
  readonly signal: AbortSignal;
}

/** Forwards one tool call of the code, cancelled with its downstream request and its run. */
export type ForwardCall = (
  tool: ServedTool,
  args: Record<string, unknown>,
  call: CodeCall,
) => Promise<Record<string, unknown>>;

interface Entry extends CodeModeTool {
  readonly served: ServedTool;
}

/** The code tool of one gateway. */
export class GatewayCodeMode {
  readonly #options: GatewayCodeModeOptions;
  readonly #forward: ForwardCall;
  #handle: Handle | undefined;
  #api: CodeApi<Entry> | undefined;

  constructor(options: GatewayCodeModeOptions, forward: ForwardCall) {
    this.#options = options;
    this.#forward = forward;
  }

  /** Brings `run_code` in step with `catalogue` (the model-visible tools), on `server`. */
  sync(server: McpServer, catalogue: readonly ServedTool[]): void {
    const max = this.#options.maxDeclarationChars;
    const api = buildCodeApi(
      catalogue.map((served) => ({
        server: served.upstream,
        tool: { ...served.definition, name: served.original },
        served,
      })),
      max === undefined ? {} : { maxDeclarationChars: max },
    );
    const same = this.#api?.definition.description === api.definition.description;
    this.#api = api;
    if (same && this.#handle !== undefined) return;
    this.#handle?.remove();
    this.#handle = server.tool(
      { ...api.definition, name: CODE_TOOL },
      (args: Record<string, unknown>, ctx: HandlerContext) => this.#run(args, ctx),
    );
  }

  async #run(args: Record<string, unknown>, ctx: HandlerContext): Promise<ToolResult> {
    const api = this.#api;
    if (api === undefined) throw new Error('code mode is not ready');
    return (await runCodeTool(api, args, {
      call: async (entry, input, signal) =>
        (await this.#forward(entry.served, input, { ctx, signal })) as unknown as CallToolResult,
      limits: this.#options,
      signal: ctx.signal,
    })) as ToolResult;
  }
}

/** The gateway's code mode when `option` turns it on. */
export function codeModeOf(
  option: boolean | GatewayCodeModeOptions | undefined,
  forward: ForwardCall,
): GatewayCodeMode | undefined {
  if (option === undefined || option === false) return undefined;
  return new GatewayCodeMode(option === true ? {} : option, forward);
}

export { CODE_TOOL };
