// What a form field is for a JSON Schema: the pure half of the form generator (schema-form.tsx
// draws it). A schema the forms cannot draw faithfully becomes a raw JSON field, never a wrong one.
import type { JsonSchema } from './types';

/** One choice of a `<select>`: the JSON value it stands for and the text shown. */
export interface Choice {
  value: unknown;
  label: string;
}

/** How a schema is edited. */
export type FieldKind =
  'string' | 'number' | 'integer' | 'boolean' | 'choice' | 'array' | 'object' | 'json';

/** The schema's single non-null type, when it has one. */
export function typeOf(schema: JsonSchema): string | undefined {
  const { type } = schema;
  if (typeof type === 'string') return type;
  if (Array.isArray(type)) {
    const real = type.filter((t) => t !== 'null');
    return real.length === 1 ? real[0] : undefined;
  }
  if (schema.properties !== undefined) return 'object';
  return undefined;
}

/**
 * `anyOf`/`oneOf` of one schema and `{type: 'null'}` (how zod and pydantic spell optional) is
 * that schema; anything else is returned as it is.
 */
export function unwrapNullable(schema: JsonSchema): JsonSchema {
  const options = schema.anyOf ?? schema.oneOf;
  if (options?.length !== 2) return schema;
  const real = options.filter((o) => o.type !== 'null');
  if (real.length !== 1 || real[0] === undefined) return schema;
  const rest = Object.fromEntries(
    Object.entries(schema).filter(([k]) => k !== 'anyOf' && k !== 'oneOf'),
  ) as JsonSchema;
  return { ...real[0], ...rest };
}

/**
 * The choices of an `enum` (titled by `enumNames` when given) or of a `oneOf`/`anyOf` whose
 * options are all `const` (titled by their `title`); undefined when the schema is neither.
 */
export function choicesOf(schema: JsonSchema): Choice[] | undefined {
  if (Array.isArray(schema.enum)) {
    return schema.enum.map((value, i) => ({
      value,
      label: schema.enumNames?.[i] ?? (typeof value === 'string' ? value : JSON.stringify(value)),
    }));
  }
  const options = schema.oneOf ?? schema.anyOf;
  if (options !== undefined && options.length > 0 && options.every((o) => 'const' in o)) {
    return options.map((o) => ({
      value: o.const,
      label: o.title ?? (typeof o.const === 'string' ? o.const : JSON.stringify(o.const ?? null)),
    }));
  }
  return undefined;
}

/** How to edit `schema`. */
export function kindOf(schema: JsonSchema): FieldKind {
  if (choicesOf(schema) !== undefined) return 'choice';
  switch (typeOf(schema)) {
    case 'string':
      return 'string';
    case 'number':
      return 'number';
    case 'integer':
      return 'integer';
    case 'boolean':
      return 'boolean';
    case undefined:
      return 'json';
    case 'array':
      return schema.items === undefined || Array.isArray(schema.items) ? 'json' : 'array';
    case 'object':
      return schema.properties === undefined ? 'json' : 'object';
    default:
      return 'json';
  }
}

/** The `<input type>` for a string `format`. */
export function inputTypeOf(schema: JsonSchema): 'text' | 'email' | 'url' | 'date' | 'time' {
  switch (schema.format) {
    case 'email':
      return 'email';
    case 'uri':
    case 'url':
      return 'url';
    case 'date':
      return 'date';
    case 'time':
      return 'time';
    case undefined:
      return 'text';
    default:
      return 'text';
  }
}

/** `min`/`max` of a number field, exclusive bounds included (as far as HTML can say it). */
export function boundsOf(schema: JsonSchema): { min?: number; max?: number } {
  const out: { min?: number; max?: number } = {};
  if (typeof schema.minimum === 'number') out.min = schema.minimum;
  if (typeof schema.exclusiveMinimum === 'number') out.min = schema.exclusiveMinimum;
  if (typeof schema.maximum === 'number') out.max = schema.maximum;
  if (typeof schema.exclusiveMaximum === 'number') out.max = schema.exclusiveMaximum;
  return out;
}

/**
 * The value a fresh form holds for an object schema: each property's default, nested objects
 * filled in the same way; properties without a default are left out.
 */
export function initialValue(schema: JsonSchema | undefined): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (schema?.default !== undefined && isRecord(schema.default)) return { ...schema.default };
  for (const [name, raw] of Object.entries(schema?.properties ?? {})) {
    const prop = unwrapNullable(raw);
    if (prop.default !== undefined) out[name] = structuredClone(prop.default);
    else if (kindOf(prop) === 'object' && (schema?.required ?? []).includes(name)) {
      out[name] = initialValue(prop);
    }
  }
  return out;
}

/** A short text for the constraints HTML cannot show (shown under the field). */
export function constraintsOf(schema: JsonSchema): string {
  const parts: string[] = [];
  const { min, max } = boundsOf(schema);
  if (min !== undefined && max !== undefined) parts.push(`${min} to ${max}`);
  else if (min !== undefined) parts.push(`at least ${min}`);
  else if (max !== undefined) parts.push(`at most ${max}`);
  if (schema.minLength !== undefined && schema.maxLength !== undefined) {
    parts.push(`${schema.minLength}–${schema.maxLength} characters`);
  } else if (schema.minLength !== undefined) parts.push(`at least ${schema.minLength} characters`);
  else if (schema.maxLength !== undefined) parts.push(`at most ${schema.maxLength} characters`);
  if (schema.pattern !== undefined) parts.push(`pattern ${schema.pattern}`);
  if (schema.format !== undefined) parts.push(`format ${schema.format}`);
  if (schema.minItems !== undefined) parts.push(`at least ${schema.minItems} items`);
  if (schema.maxItems !== undefined) parts.push(`at most ${schema.maxItems} items`);
  return parts.join(' · ');
}

/**
 * A JSON Schema `pattern` as an HTML `pattern` attribute, or undefined when the browser could
 * not use it (then {@link patternProblem} checks the value alone). HTML matches the whole value
 * under the `v` flag, JSON Schema anywhere in it under `u`: an unanchored side is widened with
 * `[\s\S]*`, and the characters `v` wants escaped inside a class (`-` at either end, `(){}[/|`)
 * are escaped. A pattern anchored at both ends that `v` accepts is kept as it is.
 */
export function htmlPattern(pattern: string): string | undefined {
  const source = escapeForV(pattern);
  const start = source.startsWith('^');
  const end = source.endsWith('$') && !source.endsWith('\\$');
  const html =
    start && end ? source : `${start ? '' : '[\\s\\S]*'}(?:${source})${end ? '' : '[\\s\\S]*'}`;
  try {
    new RegExp(`^(?:${html})$`, 'v');
    return html;
  } catch {
    return undefined;
  }
}

/** Escapes inside character classes what the `v` flag reads as syntax. */
function escapeForV(pattern: string): string {
  let out = '';
  let inClass = false;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern.charAt(i);
    if (c === '\\') {
      out += c + pattern.charAt(i + 1);
      i++;
    } else if (!inClass) {
      if (c === '[') {
        inClass = true;
        out += c;
        if (pattern.charAt(i + 1) === '^') {
          out += '^';
          i++;
        }
        if (pattern.charAt(i + 1) === '-') {
          out += '\\-';
          i++;
        }
      } else out += c;
    } else if (c === ']') {
      inClass = false;
      out += c;
    } else if (c === '-' && pattern.charAt(i + 1) === ']') out += '\\-';
    else if ('(){}[/|'.includes(c)) out += `\\${c}`;
    else out += c;
  }
  return out;
}

/** Why `value` does not match the JSON Schema `pattern`, or '' when it does (or cannot tell). */
export function patternProblem(pattern: string | undefined, value: string): string {
  if (pattern === undefined || value === '') return '';
  try {
    return new RegExp(pattern, 'u').test(value) ? '' : `Must match the pattern ${pattern}`;
  } catch {
    return '';
  }
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
