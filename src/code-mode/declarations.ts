// Compact TypeScript declarations of MCP tools, from their input and output schemas: one
// namespace per server, one async function per tool. The schemas come from servers (strangers):
// the translation is bounded in depth, in properties and in length, and what it cannot express
// becomes `unknown`.

/** A tool as the declarations see it: only the fields they read. */
export interface DeclaredTool {
  readonly name: string;
  readonly description?: string | undefined;
  readonly inputSchema?: unknown;
  readonly outputSchema?: unknown;
}

const MAX_DEPTH = 5;
const MAX_PROPERTIES = 40;
const MAX_UNION = 12;
const MAX_TYPE_CHARS = 2_000;
const MAX_DESCRIPTION = 160;
const MAX_PROPERTY_DESCRIPTION = 80;

const RESERVED = new Set(
  (
    'break case catch class const continue debugger default delete do else enum export extends false ' +
    'finally for function if import in instanceof new null return super switch this throw true try ' +
    'typeof var void while with yield let static implements interface package private protected ' +
    'public await async undefined NaN Infinity globalThis console JSON Math Object Array String ' +
    'Number Boolean Symbol Promise Error Date RegExp Map Set ToolError searchTools eval arguments'
  ).split(' '),
);

/** A JavaScript identifier for `name`: other characters become `_`; reserved words get a `_`. */
export function identifier(name: string): string {
  let id = name.replace(/[^A-Za-z0-9_$]/g, '_');
  if (id === '' || /^[0-9]/.test(id)) id = `_${id}`;
  return RESERVED.has(id) ? `${id}_` : id;
}

/** `name` made unique among `taken` (adds it): `_2`, `_3`, … appended when needed. */
export function unique(name: string, taken: Set<string>): string {
  let candidate = name;
  for (let n = 2; taken.has(candidate); n++) candidate = `${name}_${String(n)}`;
  taken.add(candidate);
  return candidate;
}

/** One line of a description, cut at `max` characters, safe inside a comment. */
export function shortText(text: string | undefined, max: number): string {
  const line = (text ?? '').replace(/\s+/g, ' ').replace(/\*\//g, '* /').trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

function record(value: unknown): Record<string, unknown> | undefined {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

function literal(value: unknown): string {
  const text = JSON.stringify(value) as string | undefined;
  return text === undefined || text.length > 80 ? 'unknown' : text;
}

const PROPERTY_NAME = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** A TypeScript type for a JSON Schema (the common keywords; the rest is `unknown`). */
export function schemaType(schema: unknown, depth = 0): string {
  const type = typeOf(schema, depth);
  return type.length > MAX_TYPE_CHARS ? 'unknown' : type;
}

function typeOf(schema: unknown, depth: number): string {
  const s = record(schema);
  if (s === undefined) return schema === false ? 'never' : 'unknown';
  if (depth > MAX_DEPTH) return 'unknown';
  if ('const' in s) return literal(s['const']);
  if (Array.isArray(s['enum'])) return union(s['enum'].slice(0, MAX_UNION).map(literal));
  for (const key of ['anyOf', 'oneOf'] as const) {
    const options = s[key];
    if (Array.isArray(options)) {
      return union(options.slice(0, MAX_UNION).map((o) => typeOf(o, depth + 1)));
    }
  }
  if (Array.isArray(s['allOf'])) {
    const parts = s['allOf'].slice(0, MAX_UNION).map((o) => typeOf(o, depth + 1));
    return parts.length === 0 ? 'unknown' : parts.map(wrap).join(' & ');
  }
  const types = Array.isArray(s['type']) ? s['type'] : [s['type']];
  return union(types.slice(0, MAX_UNION).map((t) => single(s, t, depth)));
}

function single(s: Record<string, unknown>, type: unknown, depth: number): string {
  switch (type) {
    case 'string':
      return 'string';
    case 'number':
    case 'integer':
      return 'number';
    case 'boolean':
      return 'boolean';
    case 'null':
      return 'null';
    case 'array': {
      const items = s['items'];
      if (Array.isArray(items)) return `[${items.map((i) => typeOf(i, depth + 1)).join(', ')}]`;
      return `${wrap(typeOf(items ?? {}, depth + 1))}[]`;
    }
    case 'object':
      return objectType(s, depth);
    default:
      return record(s['properties']) === undefined ? 'unknown' : objectType(s, depth);
  }
}

function objectType(s: Record<string, unknown>, depth: number): string {
  const properties = record(s['properties']) ?? {};
  const required = new Set(Array.isArray(s['required']) ? s['required'] : []);
  const fields = Object.entries(properties)
    .slice(0, MAX_PROPERTIES)
    .map(([key, value]) => {
      const name = PROPERTY_NAME.test(key) ? key : JSON.stringify(key);
      const note = shortText(
        record(value)?.['description'] as string | undefined,
        MAX_PROPERTY_DESCRIPTION,
      );
      const comment = note === '' ? '' : `/** ${note} */ `;
      return `${comment}${name}${required.has(key) ? '' : '?'}: ${typeOf(value, depth + 1)}`;
    });
  const extra = s['additionalProperties'];
  if (Object.keys(properties).length > MAX_PROPERTIES || (extra !== false && extra !== undefined)) {
    const rest = record(extra) === undefined ? 'unknown' : typeOf(extra, depth + 1);
    fields.push(`[key: string]: ${rest}`);
  }
  if (fields.length === 0) return extra === false ? '{}' : 'Record<string, unknown>';
  return `{ ${fields.join('; ')} }`;
}

function union(parts: readonly string[]): string {
  const distinct = [...new Set(parts)];
  if (distinct.length === 0) return 'unknown';
  if (distinct.includes('unknown')) return 'unknown';
  return distinct.map(wrap).join(' | ');
}

function wrap(type: string): string {
  return /[|&]/.test(type) && !type.startsWith('{') ? `(${type})` : type;
}

/**
 * One tool's declaration: `/** description *\/ function name(input: …): Promise<…>;`. The result
 * type is the output schema's, or `string` (the text of the result) without one.
 */
export function declareFunction(id: string, tool: DeclaredTool): string {
  const note = shortText(tool.description, MAX_DESCRIPTION);
  const input = schemaType(tool.inputSchema ?? { type: 'object' });
  const output = tool.outputSchema === undefined ? 'string' : schemaType(tool.outputSchema);
  return `${note === '' ? '' : `/** ${note} */\n`}function ${id}(input: ${input}): Promise<${output}>;`;
}

/** A namespace's declaration, its functions indented. */
export function declareNamespace(namespace: string, functions: readonly string[]): string {
  const body = functions.map((f) => f.replace(/^/gm, '  ')).join('\n');
  return `declare namespace ${namespace} {\n${body}\n}`;
}
