// Loading a document: parsed (JSON or YAML, a file or a URL), validated and dereferenced by
// @readme/openapi-parser (an optional peer dependency, loaded on first use), never by hand.
// Circular references stay as cycles in the objects; the schema conversion cuts them.
import type { OpenApiDocument } from './types.js';

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

/**
 * Loads `source` (a path, an http(s) URL, or a document object): parses, validates and
 * dereferences it. Throws OpenApiLoadError on a document that is not valid OpenAPI 3.0 or 3.1
 * (Swagger 2.0 is refused with the reason: no well-kept converter runs on Node 20).
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
  if (typeof parsed['swagger'] === 'string') {
    throw new OpenApiLoadError(
      `${describe(source)} is Swagger ${parsed['swagger']}: convert it to OpenAPI 3 first (e.g. with the Swagger Editor); mcpkit/openapi serves OpenAPI 3.0 and 3.1`,
    );
  }
  if (options.validate !== false) {
    // A path or URL again (relative external references resolve against it), else a copy:
    // validation dereferences what it is given.
    const result = await lib.validate(again(source, parsed), parserOptions);
    if (!result.valid) {
      const first = result.errors.slice(0, 3).map((e) => e.message.trim().split('\n')[0]);
      throw new OpenApiLoadError(
        `${describe(source)} is not a valid OpenAPI document: ${first.join('; ')}`,
      );
    }
  }
  try {
    return (await lib.dereference(
      again(source, parsed),
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

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
