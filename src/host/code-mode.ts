// Code mode in the host (`codeMode` of HostOptions): the model is offered `run_code` only, whose
// description declares the catalog's tools; each tool call the code makes goes through the
// approval policy (an `approval` event each, ids `<call id>/<n>`) and the server's client, so
// elicitation, sampling and cancellation work as for a direct call. The results stay in the
// sandbox; the model gets what the code prints and returns, shaped like any result.
import type { CallToolResult, Client } from '../client/index.js';
import type { Tokenizer } from '../catalogue/index.js';
import { loadTokenizerOrEstimate } from '../catalogue/index.js';
import type { CodeApi } from '../code-mode/index.js';
import { CODE_TOOL, buildCodeApi, runCodeTool } from '../code-mode/index.js';
import { approveToolCall } from './approval.js';
import type {
  CallRecord,
  HostCodeModeOptions,
  HostEvent,
  HostOptions,
  HostTool,
} from './host-types.js';
import { DEFAULT_RESULT_TOKENS, shapeResult } from './shape.js';
import type { ModelCapabilities, ModelTool, ToolCallPart } from './types.js';

/** What code mode reads of the host. */
export interface CodeModeAccess {
  readonly options: HostOptions;
  client(server: string): Client | undefined;
  trusted(server: string): boolean;
  tokenizer(): Promise<Tokenizer>;
  capabilities(): ModelCapabilities;
}

/** A run step as code mode sees it. */
interface CodeStep {
  readonly signal: AbortSignal | undefined;
  readonly emit: (event: HostEvent) => void;
}

/** Code mode for one host: the `run_code` definition of the current catalog, and its runs. */
export class HostCodeMode {
  readonly #access: CodeModeAccess;
  readonly #options: HostCodeModeOptions;
  #api: { catalog: ReadonlyMap<string, HostTool>; api: CodeApi<HostTool> } | undefined;

  constructor(access: CodeModeAccess, options: HostCodeModeOptions) {
    this.#access = access;
    this.#options = options;
  }

  /** The code tool, built once per catalog (the same bytes every turn). */
  definition(catalog: ReadonlyMap<string, HostTool>): ModelTool {
    const { definition } = this.#apiOf(catalog);
    return {
      name: definition.name,
      description: definition.description,
      inputSchema: definition.inputSchema,
    };
  }

  /** Runs a `run_code` call: the record the host keeps, its result shaped for the model. */
  async run(
    part: ToolCallPart,
    catalog: ReadonlyMap<string, HostTool>,
    step: CodeStep,
  ): Promise<CallRecord> {
    const api = this.#apiOf(catalog);
    let n = 0;
    const result = await runCodeTool(api, part.arguments, {
      call: (entry, args, signal) =>
        this.#callOne(entry, args, { id: `${part.id}/${String(++n)}`, signal, step }),
      limits: this.#options,
      ...(step.signal === undefined ? {} : { signal: step.signal }),
    });
    step.signal?.throwIfAborted();
    const shaped = await shapeResult(result, {
      capabilities: this.#access.capabilities(),
      tokenizer: await this.#access.tokenizer(),
      maxTokens: this.#access.options.resultTokens ?? DEFAULT_RESULT_TOKENS,
    });
    return {
      id: part.id,
      name: part.name,
      server: undefined,
      tool: undefined,
      arguments: part.arguments,
      decision: 'approved',
      result,
      shaped,
    };
  }

  /** One tool call of the code: approval, then the server's client. Throws when it cannot run. */
  async #callOne(
    entry: HostTool,
    args: Record<string, unknown>,
    call: { id: string; signal: AbortSignal; step: CodeStep },
  ): Promise<CallToolResult> {
    const { options } = this.#access;
    const annotations = entry.tool.annotations as Readonly<Record<string, unknown>> | undefined;
    const decision = await approveToolCall(options.approval ?? {}, options.onApproval, {
      name: entry.name,
      server: entry.server,
      tool: entry.tool.name,
      arguments: args,
      ...(annotations === undefined ? {} : { annotations }),
      trusted: this.#access.trusted(entry.server),
    });
    call.step.emit({ type: 'approval', id: call.id, name: entry.name, decision });
    if (decision === 'declined') throw new Error(`the call of ${entry.name} was declined`);
    const client = this.#access.client(entry.server);
    if (client === undefined) throw new Error(`server "${entry.server}" is not connected`);
    // The call's signal follows the run's own (runCode aborts its calls when the step's signal
    // does, with that reason): nothing to combine per call.
    return client.callTool(entry.tool.name, args, { signal: call.signal });
  }

  #apiOf(catalog: ReadonlyMap<string, HostTool>): CodeApi<HostTool> {
    if (this.#api?.catalog !== catalog) {
      const tools = [...catalog.values()];
      const max = this.#options.maxDeclarationChars;
      this.#api = {
        catalog,
        api: buildCodeApi(tools, max === undefined ? {} : { maxDeclarationChars: max }),
      };
    }
    return this.#api.api;
  }
}

/** The code tool's name, for the host's dispatch. */
export { CODE_TOOL };

/** Code mode of a host, when its options turn it on (`client` gives a server's client). */
export function codeModeOf(
  options: HostOptions,
  client: (server: string) => Client | undefined,
): HostCodeMode | undefined {
  const { codeMode } = options;
  if (codeMode === undefined || codeMode === false) return undefined;
  let tokenizer: Promise<Tokenizer> | undefined;
  return new HostCodeMode(
    {
      options,
      client,
      trusted: (server) => options.servers?.[server]?.trusted === true,
      tokenizer: () =>
        (tokenizer ??= Promise.resolve(options.tokenizer ?? loadTokenizerOrEstimate())),
      capabilities: () => ({ vision: true, audio: false, ...options.capabilities }),
    },
    codeMode === true ? {} : codeMode,
  );
}
