// format_json's logic, no MCP in it: a strict JSON (RFC 8259) reader that keeps every number and
// string exactly as written (JSON.parse would round 12345678901234567890), and a writer that
// pretty-prints or minifies, optionally sorting keys. Errors name the line and column.

/** Most bytes of input format_json takes unless told. */
export const DEFAULT_MAX_JSON_BYTES: number = 1024 * 1024;

/** Deepest nesting accepted (deeper input is refused, not a stack overflow). */
export const MAX_JSON_DEPTH = 512;

/** Invalid JSON: where, 1-based, and what was expected. */
export class JsonSyntaxError extends Error {
  override readonly name = 'JsonSyntaxError';
  /** 1-based line and column (in UTF-16 code units) of the error. */
  readonly line: number;
  readonly column: number;
  /** What is wrong there. */
  readonly problem: string;

  constructor(line: number, column: number, problem: string) {
    super(`invalid JSON at line ${String(line)}, column ${String(column)}: ${problem}`);
    this.line = line;
    this.column = column;
    this.problem = problem;
  }
}

/** A parsed value: scalars keep their source text. */
type Node =
  | { kind: 'scalar'; text: string }
  | { kind: 'array'; items: Node[] }
  | { kind: 'object'; entries: { key: string; value: Node }[] };

/** How to write the JSON. */
export interface FormatOptions {
  /** Spaces per level; 0 writes it on one line with no spaces. */
  indent: number;
  /** Sort each object's keys (by UTF-16 code units, like JSON's own order of strings). */
  sortKeys: boolean;
}

/** Reformats `text`. Throws {@link JsonSyntaxError}, or RangeError past `maxOutputBytes`. */
export function formatJson(
  text: string,
  options: FormatOptions,
  maxOutputBytes: number = Infinity,
): string {
  const node = new Reader(text).document();
  const out = new Writer(options, maxOutputBytes);
  out.node(node, 0);
  return out.parts.join('');
}

/** Writes a node tree, counting what it writes against a limit (indentation can multiply it). */
class Writer {
  readonly parts: string[] = [];
  private length = 0;

  private readonly options: FormatOptions;
  private readonly max: number;

  constructor(options: FormatOptions, max: number) {
    this.options = options;
    this.max = max;
  }

  node(node: Node, depth: number): void {
    if (node.kind === 'scalar') {
      this.put(node.text);
      return;
    }
    const open = node.kind === 'array' ? '[' : '{';
    const close = node.kind === 'array' ? ']' : '}';
    const count = node.kind === 'array' ? node.items.length : node.entries.length;
    if (count === 0) {
      this.put(open + close);
      return;
    }
    const { indent } = this.options;
    const pad = indent === 0 ? '' : '\n' + ' '.repeat(indent * (depth + 1));
    this.put(open);
    if (node.kind === 'array') {
      node.items.forEach((item, index) => {
        this.put(index === 0 ? pad : ',' + pad);
        this.node(item, depth + 1);
      });
    } else {
      const entries = this.options.sortKeys ? sortEntries(node.entries) : node.entries;
      const colon = indent === 0 ? ':' : ': ';
      entries.forEach((entry, index) => {
        this.put((index === 0 ? pad : ',' + pad) + entry.key + colon);
        this.node(entry.value, depth + 1);
      });
    }
    this.put((indent === 0 ? '' : '\n' + ' '.repeat(indent * depth)) + close);
  }

  private put(text: string): void {
    this.length += text.length;
    if (this.length > this.max) {
      throw new RangeError(
        `the formatted JSON would be longer than ${String(this.max)} characters; use a smaller indent or indent 0`,
      );
    }
    this.parts.push(text);
  }
}

function sortEntries(entries: { key: string; value: Node }[]): { key: string; value: Node }[] {
  const decoded = entries.map((entry) => ({ entry, name: JSON.parse(entry.key) as string }));
  decoded.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return decoded.map(({ entry }) => entry);
}

const NUMBER = /-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/y;

/** A recursive-descent reader over the source text, tracking the position for errors. */
class Reader {
  private at = 0;

  private readonly text: string;

  constructor(text: string) {
    this.text = text;
  }

  document(): Node {
    this.skipSpace();
    if (this.at >= this.text.length) this.fail('the input is empty (expected a JSON value)');
    const node = this.value(0);
    this.skipSpace();
    if (this.at < this.text.length) this.fail(`unexpected ${this.describe()} after the value`);
    return node;
  }

  private value(depth: number): Node {
    if (depth > MAX_JSON_DEPTH) this.fail(`nested deeper than ${String(MAX_JSON_DEPTH)} levels`);
    const char = this.text[this.at];
    if (char === '{') return this.object(depth);
    if (char === '[') return this.array(depth);
    if (char === '"') return { kind: 'scalar', text: this.string() };
    if (char === '-' || (char !== undefined && char >= '0' && char <= '9')) {
      return { kind: 'scalar', text: this.number() };
    }
    for (const word of ['true', 'false', 'null']) {
      if (this.text.startsWith(word, this.at)) {
        this.at += word.length;
        return { kind: 'scalar', text: word };
      }
    }
    return this.fail(`unexpected ${this.describe()} (expected a value)`);
  }

  private object(depth: number): Node {
    this.at++; // {
    const entries: { key: string; value: Node }[] = [];
    this.skipSpace();
    if (this.text[this.at] === '}') {
      this.at++;
      return { kind: 'object', entries };
    }
    for (;;) {
      this.skipSpace();
      if (this.text[this.at] !== '"') {
        this.fail(`unexpected ${this.describe()} (expected a property name in double quotes)`);
      }
      const key = this.string();
      this.skipSpace();
      if (this.text[this.at] !== ':') this.fail(`unexpected ${this.describe()} (expected ":")`);
      this.at++;
      this.skipSpace();
      entries.push({ key, value: this.value(depth + 1) });
      this.skipSpace();
      const next = this.text[this.at];
      this.at++;
      if (next === '}') return { kind: 'object', entries };
      if (next !== ',')
        this.failBefore(`unexpected ${this.describeAt(this.at - 1)} (expected "," or "}")`);
    }
  }

  private array(depth: number): Node {
    this.at++; // [
    const items: Node[] = [];
    this.skipSpace();
    if (this.text[this.at] === ']') {
      this.at++;
      return { kind: 'array', items };
    }
    for (;;) {
      this.skipSpace();
      items.push(this.value(depth + 1));
      this.skipSpace();
      const next = this.text[this.at];
      this.at++;
      if (next === ']') return { kind: 'array', items };
      if (next !== ',')
        this.failBefore(`unexpected ${this.describeAt(this.at - 1)} (expected "," or "]")`);
    }
  }

  private string(): string {
    const start = this.at;
    this.at++; // "
    for (;;) {
      const char = this.text[this.at];
      if (char === undefined) this.fail('unterminated string');
      if (char === '"') break;
      if (char === '\\') {
        const escape = this.text[this.at + 1];
        if (escape === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(this.text.slice(this.at + 2, this.at + 6))) {
            this.fail('invalid \\u escape (expected four hex digits)');
          }
          this.at += 6;
          continue;
        }
        if (escape === undefined || !'"\\/bfnrt'.includes(escape)) {
          this.fail(`invalid escape "\\${escape ?? ''}" in a string`);
        }
        this.at += 2;
        continue;
      }
      if (char < ' ') this.fail('a control character in a string (escape it, e.g. \\n)');
      this.at++;
    }
    this.at++;
    return this.text.slice(start, this.at);
  }

  private number(): string {
    NUMBER.lastIndex = this.at;
    const match = NUMBER.exec(this.text);
    if (match === null) this.fail(`invalid number (expected a digit after "-")`);
    const text = match[0];
    const after = this.text[this.at + text.length];
    if (after !== undefined && /[0-9.eE+-]/.test(after)) {
      this.at += text.length;
      this.fail(`invalid number (unexpected "${after}")`);
    }
    this.at += text.length;
    return text;
  }

  private skipSpace(): void {
    while (this.at < this.text.length) {
      const char = this.text[this.at];
      if (char !== ' ' && char !== '\t' && char !== '\n' && char !== '\r') return;
      this.at++;
    }
  }

  private describe(): string {
    return this.describeAt(this.at);
  }

  private describeAt(offset: number): string {
    const char = this.text.codePointAt(offset);
    if (char === undefined) return 'end of input';
    return JSON.stringify(String.fromCodePoint(char));
  }

  /** Fails at the character just read. */
  private failBefore(problem: string): never {
    this.at--;
    return this.fail(problem);
  }

  private fail(problem: string): never {
    const before = this.text.slice(0, this.at);
    const line = before.split(/\r\n|\r|\n/).length;
    const lineStart = Math.max(before.lastIndexOf('\n'), before.lastIndexOf('\r')) + 1;
    throw new JsonSyntaxError(line, this.at - lineStart + 1, problem);
  }
}
