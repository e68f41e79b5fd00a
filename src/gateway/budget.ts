// The token budget of an endpoint (docs/gateway.md, "A token budget"): past it, the endpoint
// serves `search_tools` and the tools searches found instead of every tool. With policies the
// decision is each caller's, over the tools that caller may see (a hidden tool counts for
// nobody): made once per visible set (one per principal kind) and list of tools, then a
// WeakMap read per request.
import type { Tool } from '../client/index.js';
import type { Tokenizer } from '../catalogue/index.js';
import { SEARCH_TOOLS, SEARCH_TOOLS_DEFINITION, serializeTool } from '../catalogue/index.js';
import { invalidParams } from '../protocol/errors.js';
import type { RequestMiddleware } from '../server/index.js';
import { filtered } from './access.js';
import type { GatewayStatus, Origin, Visible } from './endpoint-types.js';
import type { ServedTool } from './served.js';

/** What a caller is served of an endpoint's tools. */
export interface CallerBudget {
  /** Whether it is served `search_tools` and the tools found instead of every tool. */
  readonly catalogue: boolean;
  /** What the definitions of the tools it may see cost (tokens). */
  readonly all: number;
}

/** An endpoint's budget over its catalogue (the model-visible tools it serves). */
export class Budget {
  /** The most tokens; undefined: no budget. */
  #limit: number | undefined;
  readonly #tokenizer: Tokenizer;
  /** Each catalogue tool's cost, by its definition's JSON (counted once per definition). */
  #tokens = new Map<string, number>();
  #catalogue: readonly ServedTool[] = [];
  #all = 0;
  #callers = new WeakMap<Visible, CallerBudget>();
  /** What `search_tools`'s definition costs. */
  readonly searchCost: number;

  constructor(limit: number | undefined, tokenizer: Tokenizer) {
    this.#limit = limit;
    this.#tokenizer = tokenizer;
    this.searchCost = tokenizer.count(serializeTool(SEARCH_TOOLS_DEFINITION as Tool));
  }

  /** Counts a new catalogue (its tools' costs kept from the last one when unchanged). */
  update(catalogue: readonly ServedTool[]): void {
    const before = this.#tokens;
    this.#tokens = new Map();
    let all = 0;
    for (const tool of catalogue) {
      const tokens = before.get(tool.key) ?? this.#tokenizer.count(serializeTool(tool.definition));
      this.#tokens.set(tool.key, tokens);
      all += tokens;
    }
    this.#catalogue = catalogue;
    this.#all = all;
    this.#callers = new WeakMap();
  }

  /** The most tokens; undefined: no budget. */
  get limit(): number | undefined {
    return this.#limit;
  }

  /** Takes a new limit (a reload): every caller's decision is made again. */
  setLimit(limit: number | undefined): void {
    this.#limit = limit;
    this.#callers = new WeakMap();
  }

  /** What every tool of the catalogue costs. */
  get all(): number {
    return this.#all;
  }

  /** Whether the whole catalogue is over the budget (some caller may be). */
  get exceeded(): boolean {
    return this.#limit !== undefined && this.#all > this.#limit;
  }

  /** What `tools` (of the catalogue) cost. */
  cost(tools: readonly ServedTool[]): number {
    let sum = 0;
    for (const tool of tools) sum += this.#tokens.get(tool.key) ?? 0;
    return sum;
  }

  /**
   * The mode and token counts of a caller that sees `tools` (of the catalogue), `found` loaded
   * by searches; in code mode every tool is counted as served.
   */
  status(
    tools: readonly ServedTool[],
    found: ReadonlySet<string>,
    code: boolean,
  ): Pick<GatewayStatus, 'mode' | 'tokens'> {
    const all = this.cost(tools);
    const catalogue = this.#limit !== undefined && all > this.#limit;
    const loaded = tools.filter((tool) => found.has(tool.definition.name));
    const served = catalogue && !code ? this.cost(loaded) + this.searchCost : all;
    return {
      mode: catalogue ? 'catalogue' : 'all',
      tokens: { served, all, ...(this.#limit === undefined ? {} : { budget: this.#limit }) },
    };
  }

  /** The decision for the callers that see `visible` (made once per catalogue). */
  of(visible: Visible): CallerBudget {
    let decided = this.#callers.get(visible);
    if (decided === undefined) {
      const all = this.cost(this.#catalogue.filter((tool) => visible(originOf(tool))));
      decided = { catalogue: this.#limit !== undefined && all > this.#limit, all };
      this.#callers.set(visible, decided);
    }
    return decided;
  }
}

/** Where a served tool comes from. */
export function originOf(tool: ServedTool): Origin {
  return { upstream: tool.upstream, name: tool.original };
}

/** What an endpoint that decides its budget per caller tells {@link perCallerTools}. */
export interface PerCaller {
  readonly budget: Budget;
  /** The caller's visible set; undefined: everything (no policy in force). */
  readonly visible: (ctx: Parameters<RequestMiddleware>[0]) => Visible | undefined;
  /** The names of the tools searches found. */
  readonly found: ReadonlySet<string>;
  /** Whether `name` is a catalogue tool (a model-visible upstream tool: counted, searchable). */
  readonly catalogued: (name: string) => boolean;
}

/**
 * The middleware of an endpoint that registers every tool and `search_tools` (its catalogue is
 * over budget, and policies decide per caller): a caller whose visible set fits the budget is
 * listed its tools without `search_tools`; one over it `search_tools` and the tools found. What
 * a caller is not listed is an unknown tool to it, as on an endpoint without policies.
 */
export function perCallerTools(per: PerCaller): RequestMiddleware {
  const { budget, found, catalogued } = per;
  return (ctx, next) => {
    if (!budget.exceeded || (ctx.method !== 'tools/list' && ctx.method !== 'tools/call')) {
      return next();
    }
    const visible = per.visible(ctx);
    const catalogue = visible === undefined || budget.of(visible).catalogue;
    const keep = (name: string) =>
      name === SEARCH_TOOLS ? catalogue : !catalogue || !catalogued(name) || found.has(name);
    if (ctx.method === 'tools/call') {
      const name = ctx.params['name'];
      if (typeof name === 'string' && !keep(name)) {
        throw invalidParams(`unknown tool ${JSON.stringify(name)}`);
      }
      return next();
    }
    const listed = (item: Record<string, unknown>) => keep(String(item['name']));
    const result = next();
    return result instanceof Promise
      ? result.then((value) => filtered(value, 'tools', listed))
      : filtered(result, 'tools', listed);
  };
}
