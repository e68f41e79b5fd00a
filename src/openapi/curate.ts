// Curation: which operations become tools (include and exclude by tag, operationId, path glob
// and method; read-only), and what they are called, say, and take (rename, re-describe, fix a
// parameter's value so that the model never sees it).
import type { OperationRef } from './generate.js';
import type { ToolPlan } from './types.js';

/**
 * Operations to match. Within a field the entries are alternatives; the fields given must all
 * match (`{ tags: ['issues'], methods: ['GET'] }`: the issues endpoints that read).
 */
export interface Selector {
  readonly tags?: readonly string[];
  /** operationIds (or the generated tool names). */
  readonly operations?: readonly string[];
  /** Path globs: `*` is one segment's characters, `**` any characters (`/repos/*\/*\/issues/**`). */
  readonly paths?: readonly string[];
  readonly methods?: readonly string[];
}

/** How one tool is changed, by its operationId or generated name. */
export interface ToolOverride {
  readonly name?: string;
  readonly description?: string;
  /** Argument values fixed here: the parameters leave the input schema and are always sent. */
  readonly fixed?: Readonly<Record<string, unknown>>;
}

/** The curation part of the configuration. */
export interface Curation {
  /** Keep only operations matching this (every operation when absent). */
  readonly include?: Selector;
  /** Leave out operations matching this. */
  readonly exclude?: Selector;
  /** Only safe methods (GET, HEAD, OPTIONS). */
  readonly readOnly?: boolean;
  readonly tools?: Readonly<Record<string, ToolOverride>>;
}

const SAFE = new Set(['get', 'head', 'options']);

function globRegExp(glob: string): RegExp {
  const source = glob
    .split('**')
    .map((part) =>
      part
        .split('*')
        .map((piece) => piece.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
        .join('[^/]*'),
    )
    .join('.*');
  return new RegExp(`^${source}$`);
}

function matches(selector: Selector, ref: OperationRef): boolean {
  const tags = Array.isArray(ref.operation['tags']) ? (ref.operation['tags'] as unknown[]) : [];
  const id = ref.operation['operationId'];
  const checks: boolean[] = [];
  if (selector.tags !== undefined) checks.push(selector.tags.some((tag) => tags.includes(tag)));
  if (selector.operations !== undefined) {
    checks.push(typeof id === 'string' && selector.operations.includes(id));
  }
  if (selector.paths !== undefined) {
    checks.push(selector.paths.some((glob) => globRegExp(glob).test(ref.path)));
  }
  if (selector.methods !== undefined) {
    checks.push(selector.methods.some((method) => method.toLowerCase() === ref.method));
  }
  return checks.length > 0 && checks.every(Boolean);
}

/** The operations curation keeps. */
export function selectOperations(
  operations: readonly OperationRef[],
  curation: Curation,
): OperationRef[] {
  return operations.filter(
    (ref) =>
      (curation.include === undefined || matches(curation.include, ref)) &&
      (curation.exclude === undefined || !matches(curation.exclude, ref)) &&
      (curation.readOnly !== true || SAFE.has(ref.method)),
  );
}

/**
 * Applies the overrides to generated tools. Throws TypeError on an override naming no tool, a
 * fixed value for no parameter, or a rename that is invalid or taken.
 */
export function applyOverrides(
  tools: readonly ToolPlan[],
  overrides: Readonly<Record<string, ToolOverride>> = {},
): ToolPlan[] {
  const used = new Set<string>();
  for (const key of Object.keys(overrides)) {
    if (!tools.some((tool) => tool.name === key || tool.operation.operationId === key)) {
      throw new TypeError(`tools.${key}: no selected operation has this operationId or name`);
    }
  }
  const result = tools.map((tool) => {
    const override = overrides[tool.operation.operationId ?? ''] ?? overrides[tool.name];
    return override === undefined ? tool : overridden(tool, override);
  });
  for (const tool of result) {
    if (used.has(tool.name)) throw new TypeError(`two tools are named "${tool.name}"`);
    used.add(tool.name);
  }
  return result;
}

function overridden(tool: ToolPlan, override: ToolOverride): ToolPlan {
  if (override.name !== undefined && !/^[a-zA-Z0-9_-]{1,64}$/.test(override.name)) {
    throw new TypeError(
      `tools.${tool.name}.name: "${override.name}" is not a valid tool name (1-64 of A-Z a-z 0-9 _ -)`,
    );
  }
  const fixed = override.fixed ?? {};
  const listed = tool.inputSchema['properties'] as Record<string, unknown>;
  for (const key of Object.keys(fixed)) {
    if (!(key in listed)) {
      throw new TypeError(`tools.${tool.name}.fixed: "${key}" is not a parameter of this tool`);
    }
  }
  const properties = Object.fromEntries(Object.entries(listed).filter(([key]) => !(key in fixed)));
  const required = Array.isArray(tool.inputSchema['required'])
    ? (tool.inputSchema['required'] as string[]).filter((key) => !(key in fixed))
    : [];
  const rest = Object.fromEntries(
    Object.entries(tool.inputSchema).filter(([key]) => key !== 'required'),
  );
  return {
    ...tool,
    name: override.name ?? tool.name,
    description: override.description ?? tool.description,
    inputSchema: { ...rest, properties, ...(required.length === 0 ? {} : { required }) },
    fixed: { ...tool.fixed, ...fixed },
  };
}
