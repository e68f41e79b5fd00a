// Prompts with arguments (spec 2025-11-25 server/prompts).
import { checkScopes } from '../protocol/auth.js';
import { isObject } from '../internal/json.js';
import { isPromise } from '../internal/maybe.js';
import type { JsonSchemaValidator } from '../protocol/json-schema/index.js';
import { invalidParams } from '../protocol/errors.js';
import type * as Spec from '../protocol/schema/2026-07-28.js';
import { contentBlockProblem, promptResultFor } from './content.js';
import type { CompiledSchema } from './schemas.js';
import { compileSchema, requireObjectSchema } from './schemas.js';
import type {
  HandlerContext,
  JsonSchemaObject,
  PromptArgumentDefinition,
  PromptDefinition,
  PromptHandler,
  PromptReturn,
} from './types.js';

/** A prompt ready to serve. */
export interface CompiledPrompt {
  readonly name: string;
  readonly wire: Spec.Prompt;
  readonly definition: PromptDefinition;
  readonly handler: PromptHandler<unknown>;
  /** The compiled `argsSchema`, which checks (and may transform) the arguments. */
  readonly args: CompiledSchema | undefined;
  /** The scopes a caller needs (auth gate on). */
  readonly scopes: readonly string[];
}

/** Compiles a prompt; throws TypeError on a registration mistake. */
export function compilePrompt(
  definition: PromptDefinition,
  handler: PromptHandler<never>,
  validator: JsonSchemaValidator,
): CompiledPrompt {
  const { name } = definition;
  if (typeof name !== 'string' || name === '')
    throw new TypeError('a prompt name must be a non-empty string');
  if (typeof handler !== 'function')
    throw new TypeError(`prompt "${name}": the handler must be a function`);
  const where = `prompt "${name}"`;
  const scopes = checkScopes(definition.scopes, where);
  let schema: CompiledSchema | undefined;
  let listed = definition.arguments ?? [];
  if (definition.argsSchema !== undefined) {
    if (definition.arguments !== undefined) {
      throw new TypeError(`${where}: give arguments or argsSchema, not both`);
    }
    schema = compileSchema(definition.argsSchema, 'input', {
      validator,
      where: `${where} argsSchema`,
    });
    requireObjectSchema(schema.json, `${where} argsSchema`);
    listed = argumentsOf(schema.json, where);
  }
  const seen = new Set<string>();
  const args = listed.map((argument) => {
    if (typeof argument.name !== 'string' || argument.name === '') {
      throw new TypeError(`${where}: every argument needs a name`);
    }
    if (seen.has(argument.name))
      throw new TypeError(`${where}: duplicate argument "${argument.name}"`);
    seen.add(argument.name);
    const wire: Spec.PromptArgument = { name: argument.name };
    if (argument.title !== undefined) wire.title = argument.title;
    if (argument.description !== undefined) wire.description = argument.description;
    if (argument.required !== undefined) wire.required = argument.required;
    return wire;
  });
  const wire: Spec.Prompt = { name };
  if (definition.title !== undefined) wire.title = definition.title;
  if (definition.description !== undefined) wire.description = definition.description;
  if (args.length > 0) wire.arguments = args;
  if (definition.icons !== undefined) wire.icons = definition.icons;
  if (definition._meta !== undefined) wire._meta = definition._meta;
  return {
    name,
    wire,
    definition,
    handler: handler as PromptHandler<unknown>,
    args: schema,
    scopes,
  };
}

/**
 * The prompt arguments an object schema describes: one per property, which must take strings
 * (prompt arguments are strings on the wire), required as the schema says.
 */
function argumentsOf(json: JsonSchemaObject, where: string): PromptArgumentDefinition[] {
  const properties = (json['properties'] ?? {}) as Record<string, Record<string, unknown>>;
  const required = new Set(Array.isArray(json['required']) ? (json['required'] as string[]) : []);
  return Object.entries(properties).map(([name, property]) => {
    const type = property['type'];
    const strings =
      type === 'string' ||
      (Array.isArray(property['enum']) && property['enum'].every((v) => typeof v === 'string'));
    if (!strings) {
      throw new TypeError(
        `${where} argsSchema: "${name}" must be a string (prompt arguments are strings; parse them in the handler)`,
      );
    }
    const argument: PromptArgumentDefinition = { name };
    if (required.has(name)) argument.required = true;
    if (typeof property['title'] === 'string') argument.title = property['title'];
    if (typeof property['description'] === 'string') argument.description = property['description'];
    return argument;
  });
}

/** Checks the arguments of a prompts/get and runs the prompt. */
export async function getPrompt(
  prompt: CompiledPrompt,
  args: unknown,
  ctx: HandlerContext,
): Promise<Spec.GetPromptResult> {
  if (args !== undefined && !isObject(args)) {
    throw invalidParams('arguments must be an object of strings');
  }
  const given: Record<string, unknown> = args ?? {};
  for (const [key, value] of Object.entries(given)) {
    if (typeof value !== 'string') throw invalidParams(`argument "${key}" must be a string`);
  }
  if (prompt.args !== undefined) {
    let checked = prompt.args.check(given);
    if (isPromise(checked)) checked = await checked;
    if (!checked.ok) {
      throw invalidParams(`invalid arguments for prompt "${prompt.name}":\n${checked.message}`);
    }
    return promptResultFor(toPromptResult(await prompt.handler(checked.value, ctx)), ctx.revision);
  }
  const missing = (prompt.wire.arguments ?? []).filter(
    (a) => a.required === true && given[a.name] === undefined,
  );
  if (missing.length > 0) {
    throw invalidParams(
      `prompt "${prompt.name}" is missing required argument${missing.length > 1 ? 's' : ''} ` +
        missing.map((a) => `"${a.name}"`).join(', '),
    );
  }
  const result = toPromptResult(await prompt.handler(given, ctx));
  return promptResultFor(result, ctx.revision);
}

function toPromptResult(returned: PromptReturn): Spec.GetPromptResult {
  if (typeof returned === 'string') {
    return {
      messages: [{ role: 'user', content: { type: 'text', text: returned } }],
    } as Spec.GetPromptResult;
  }
  // Checked, not trusted: a JavaScript handler may return anything.
  const result: unknown = Array.isArray(returned) ? { messages: returned } : returned;
  if (!isObject(result) || !Array.isArray(result['messages'])) {
    throw new TypeError('a prompt handler must return a string, messages or { messages: [...] }');
  }
  result['messages'].forEach(checkMessage);
  return Array.isArray(returned)
    ? (result as unknown as Spec.GetPromptResult)
    : ({ ...result } as unknown as Spec.GetPromptResult);
}

/** Throws TypeError for a message that is not one (it would be schema-invalid on the wire). */
function checkMessage(message: unknown, index: number): void {
  const { role, content } = (message ?? {}) as { role?: unknown; content?: unknown };
  const problem =
    role === 'user' || role === 'assistant'
      ? contentBlockProblem(content)
      : `role must be "user" or "assistant", not ${JSON.stringify(role)}`;
  if (problem !== undefined) {
    throw new TypeError(
      `a prompt handler returned an invalid message ${String(index)}: ${problem}`,
    );
  }
}
