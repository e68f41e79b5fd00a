// Loading a document: parsed (JSON or YAML, a file or a URL), validated and dereferenced by
// @readme/openapi-parser (an optional peer dependency, loaded on first use), never by hand.
// Swagger 2.0 is converted to OpenAPI 3.0 first by @scalar/openapi-upgrader (another optional
// peer; its 0.1 line is the one that runs on Node 20). Circular references stay as cycles in the
// objects; the schema conversion cuts them.
import type { OpenApiDocument } from './types.js';
import { messageOf } from '../internal/message-of.js';

/** The part of @readme/openapi-parser used here. */
interface Parser {
  parse(api: unknown, options?: unknown): Promise<Record<string, unknown>>;
  validate(
    api: unknown,
    options?: unknown,
  ): Promise<
    | { valid: true; specification: string | null }
    | { valid: false; errors: { message: string }[]; specification: string | null }
  >;
  dereference(api: unknown, options?: unknown): Promise<Record<string, unknown>>;
}

/** Options of {@link loadDocument}. */
export interface LoadOptions {
  /** Validate against the OpenAPI schema first (default true; GitHub's takes ~5 s). */
  readonly validate?: boolean;
  /** How long fetching a document (or a file it references) may take, in ms. Default 30000. */
  readonly timeoutMs?: number;
}

/** The part of @scalar/openapi-upgrader used here. */
interface Upgrader {
  upgrade(document: Record<string, unknown>, version: '3.0'): Record<string, unknown>;
}

/** A document that cannot be served: its source and why. */
export class OpenApiLoadError extends Error {
  override readonly name = 'OpenApiLoadError';
}

async function parser(): Promise<Parser> {
  try {
    return (await import('@readme/openapi-parser')) as unknown as Parser;
  } catch (error) {
    throw new OpenApiLoadError(
      'mcpkit/openapi needs the package @readme/openapi-parser: npm install @readme/openapi-parser',
      { cause: error },
    );
  }
}

async function upgrader(source: string | object): Promise<Upgrader> {
  try {
    return await import('@scalar/openapi-upgrader');
  } catch (error) {
    throw new OpenApiLoadError(
      `${describe(source)} is Swagger 2.0, which mcpkit/openapi converts to OpenAPI 3.0 with the package @scalar/openapi-upgrader: npm install @scalar/openapi-upgrader@0.1`,
      { cause: error },
    );
  }
}

/** A Swagger 2.0 document (parsed, not dereferenced) as OpenAPI 3.0. Throws OpenApiLoadError. */
async function fromSwagger2(
  source: string | object,
  parsed: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  if (parsed['swagger'] !== '2.0') {
    throw new OpenApiLoadError(
      `${describe(source)} is Swagger ${String(parsed['swagger'])}: mcpkit/openapi serves Swagger 2.0 and OpenAPI 3.0 and 3.1`,
    );
  }
  const lib = await upgrader(source);
  try {
    return withoutEmptyRequired(lib.upgrade(structuredClone(parsed), '3.0'));
  } catch (error) {
    throw new OpenApiLoadError(
      `cannot convert ${describe(source)} from Swagger 2.0: ${messageOf(error)}`,
      { cause: error },
    );
  }
}

/**
 * The converter writes `required: []` on schemas with no required property, which OpenAPI 3.0
 * forbids (at least one item): those lists go. The document is a tree (not dereferenced yet).
 */
function withoutEmptyRequired<T>(node: T): T {
  if (Array.isArray(node)) node.forEach(withoutEmptyRequired);
  else if (typeof node === 'object' && node !== null) {
    const object = node as Record<string, unknown>;
    const required = object['required'];
    if (Array.isArray(required) && required.length === 0) delete object['required'];
    Object.values(object).forEach(withoutEmptyRequired);
  }
  return node;
}

/**
 * Loads `source` (a path, an http(s) URL, or a document object): parses, validates and
 * dereferences it. Swagger 2.0 is converted to OpenAPI 3.0 first (its references must be within
 * the document). Throws OpenApiLoadError on a document that is not valid OpenAPI 3.0 or 3.1 (or
 * Swagger 2.0), or when a package it needs is missing.
 */
export async function loadDocument(
  source: string | object,
  options: LoadOptions = {},
): Promise<OpenApiDocument> {
  const lib = await parser();
  const parserOptions = {
    dereference: { circular: true },
    resolve: { http: { timeout: options.timeoutMs ?? 30_000 } },
  };
  let parsed: Record<string, unknown>;
  let input: string | object = source;
  try {
    parsed = await lib.parse(
      typeof source === 'string' ? source : structuredClone(source),
      parserOptions,
    );
  } catch (error) {
    throw new OpenApiLoadError(`cannot read ${describe(source)}: ${messageOf(error)}`, {
      cause: error,
    });
  }
  if (parsed['swagger'] !== undefined) {
    // Converted, the document is served from the object: validated and dereferenced as such.
    parsed = await fromSwagger2(source, parsed);
    input = parsed;
  }
  if (options.validate !== false) {
    // A path or URL again (relative external references resolve against it), else a copy:
    // validation dereferences what it is given.
    const result = await lib.validate(again(input, parsed), parserOptions);
    if (!result.valid) {
      const first = result.errors.slice(0, 3).map((e) => e.message.trim().split('\n')[0]);
      throw new OpenApiLoadError(
        `${describe(source)} is not a valid OpenAPI document: ${first.join('; ')}`,
      );
    }
  }
  try {
    return (await lib.dereference(
      again(input, parsed),
      parserOptions,
    )) as unknown as OpenApiDocument;
  } catch (error) {
    throw new OpenApiLoadError(`cannot dereference ${describe(source)}: ${messageOf(error)}`, {
      cause: error,
    });
  }
}

function again(source: string | object, parsed: object): unknown {
  return typeof source === 'string' ? source : structuredClone(parsed);
}

function describe(source: string | object): string {
  return typeof source === 'string' ? source : 'the document';
}
