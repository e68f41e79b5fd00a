// Vendored Standard Schema v1 and Standard JSON Schema v1 interfaces (https://standardschema.dev),
// so that zod, valibot, arktype and others plug in without mcpkit depending on any of them.

/** A schema that validates values (Standard Schema v1). */
export interface StandardSchemaV1<TInput = unknown, TOutput = TInput> {
  readonly '~standard': StandardSchemaProps<TInput, TOutput>;
}

/** The `~standard` property of a Standard Schema. */
export interface StandardSchemaProps<TInput = unknown, TOutput = TInput> {
  readonly version: 1;
  readonly vendor: string;
  readonly validate: (value: unknown) => StandardResult<TOutput> | Promise<StandardResult<TOutput>>;
  readonly types?: { readonly input: TInput; readonly output: TOutput } | undefined;
  /** Present when the library implements Standard JSON Schema v1. */
  readonly jsonSchema?: StandardJsonSchemaConverter;
}

/** Converts a schema to JSON Schema (Standard JSON Schema v1). */
export interface StandardJsonSchemaConverter {
  readonly input: (options: { readonly target: string }) => Record<string, unknown>;
  readonly output: (options: { readonly target: string }) => Record<string, unknown>;
}

/** The result of a Standard Schema validation. */
export type StandardResult<TOutput> =
  | { readonly value: TOutput; readonly issues?: undefined }
  | { readonly issues: readonly StandardIssue[] };

/** One validation issue. */
export interface StandardIssue {
  readonly message: string;
  readonly path?: readonly (PropertyKey | { readonly key: PropertyKey })[] | undefined;
}

/** The output type of a Standard Schema. */
export type InferOutput<TSchema> =
  TSchema extends StandardSchemaV1<unknown, infer TOutput> ? TOutput : never;

/** True for a value that implements Standard Schema v1. */
export function isStandardSchema(value: unknown): value is StandardSchemaV1 {
  if (typeof value !== 'object' && typeof value !== 'function') return false;
  if (value === null) return false;
  const props = (value as { '~standard'?: unknown })['~standard'];
  return (
    typeof props === 'object' && props !== null && (props as { version?: unknown }).version === 1
  );
}

/** Renders Standard Schema issues as one line each, `path: message`. */
export function formatStandardIssues(issues: readonly StandardIssue[]): string {
  return issues
    .map((issue) => {
      const path = (issue.path ?? [])
        .map((segment) => String(typeof segment === 'object' ? segment.key : segment))
        .join('.');
      return `${path === '' ? '(root)' : path}: ${issue.message}`;
    })
    .join('\n');
}
