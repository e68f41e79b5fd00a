// Argument completion (`completion/complete`) for prompt arguments and template variables.
// Spec 2025-11-25 server/utilities/completion: at most 100 values per response.
import { invalidParams } from '../protocol/errors.js';
import type * as Spec from '../protocol/schema/2026-07-28.js';
import type { CompiledPrompt } from './prompts.js';
import type { CompiledResource, CompiledTemplate } from './resources.js';
import type { Completer } from './types.js';

const MAX_VALUES = 100;

/** What completion looks in. */
export interface CompletionSources {
  prompts: ReadonlyMap<string, CompiledPrompt>;
  resources: ReadonlyMap<string, CompiledResource>;
  templates: readonly CompiledTemplate[];
}

/** Serves one completion/complete request. */
export async function complete(
  params: unknown,
  sources: CompletionSources,
): Promise<Spec.CompleteResult> {
  const { ref, argument, context } = readParams(params);
  const completer = findCompleter(ref, argument.name, sources);
  if (completer === undefined)
    return { completion: { values: [] } } as unknown as Spec.CompleteResult;
  const all = await completer(argument.value, { arguments: context });
  const values = all.slice(0, MAX_VALUES);
  const completion: Record<string, unknown> = { values };
  if (all.length > MAX_VALUES) {
    completion['total'] = all.length;
    completion['hasMore'] = true;
  }
  return { completion } as unknown as Spec.CompleteResult;
}

interface CompleteParams {
  ref: { type: string; name?: unknown; uri?: unknown };
  argument: { name: string; value: string };
  context: Record<string, string>;
}

function readParams(params: unknown): CompleteParams {
  const p = (params ?? {}) as Record<string, unknown>;
  const ref = p['ref'] as CompleteParams['ref'] | undefined;
  const argument = p['argument'] as Partial<CompleteParams['argument']> | undefined;
  if (typeof ref !== 'object' || typeof ref.type !== 'string')
    throw invalidParams('ref must be an object with a type');
  if (
    typeof argument !== 'object' ||
    typeof argument.name !== 'string' ||
    typeof argument.value !== 'string'
  ) {
    throw invalidParams('argument must be an object with string name and value');
  }
  const rawContext = (p['context'] as { arguments?: unknown } | undefined)?.arguments;
  const context: Record<string, string> = {};
  if (typeof rawContext === 'object' && rawContext !== null) {
    for (const [key, value] of Object.entries(rawContext))
      if (typeof value === 'string') context[key] = value;
  }
  return { ref, argument: { name: argument.name, value: argument.value }, context };
}

function findCompleter(
  ref: CompleteParams['ref'],
  argument: string,
  sources: CompletionSources,
): Completer | undefined {
  if (ref.type === 'ref/prompt') {
    const prompt = typeof ref.name === 'string' ? sources.prompts.get(ref.name) : undefined;
    if (prompt === undefined) throw invalidParams(`unknown prompt ${JSON.stringify(ref.name)}`);
    const { definition } = prompt;
    return (
      definition.complete?.[argument] ??
      definition.arguments?.find((a) => a.name === argument)?.complete
    );
  }
  if (ref.type === 'ref/resource') {
    const uri = ref.uri;
    if (typeof uri !== 'string') throw invalidParams('ref.uri must be a string');
    const template = sources.templates.find((t) => t.wire.uriTemplate === uri);
    if (template !== undefined) return template.definition.complete?.[argument];
    if (sources.resources.has(uri)) return undefined;
    throw invalidParams(`unknown resource template ${JSON.stringify(uri)}`);
  }
  throw invalidParams(`unknown ref type ${JSON.stringify(ref.type)}`);
}
