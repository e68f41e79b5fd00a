// The YAML subset a SKILL.md frontmatter is read in (parsed without eval or a YAML dependency):
// block mappings and sequences, plain, quoted, flow (`[a, b]`, `{a: b}`) and block (`|`, `>`)
// scalars, comments; plain scalars resolve as YAML 1.2's core schema (null, booleans, numbers).
// Anchors, aliases, tags and documents are refused. Every refusal is a FrontmatterError naming
// the line. No I/O.

/** Thrown by parseSkillFile (protocol.ts) on a SKILL.md whose frontmatter it cannot read. */
export class FrontmatterError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'FrontmatterError';
  }
}

/** The value of the YAML subset in `lines` (null for none); throws a FrontmatterError outside it. */
export function parseYamlSubset(lines: readonly string[]): unknown {
  return new YamlSubset(lines).document();
}

/** Reads the YAML subset from its lines. */
class YamlSubset {
  #lines: readonly string[];
  #at = 0;

  constructor(lines: readonly string[]) {
    this.#lines = lines;
  }

  document(): unknown {
    this.#skipBlank();
    if (this.#at >= this.#lines.length) return null;
    const value = this.#block(indentOf(this.#current()));
    this.#skipBlank();
    if (this.#at < this.#lines.length) this.#fail('unexpected indentation');
    return value;
  }

  #current(): string {
    return this.#lines[this.#at] ?? '';
  }

  #fail(reason: string): never {
    throw new FrontmatterError(`frontmatter line ${String(this.#at + 2)}: ${reason}`);
  }

  /** {@link #fail} as a function value (for the quoted and flow scalar readers). */
  readonly #raise = (reason: string): never => {
    this.#fail(reason);
  };

  #skipBlank(): void {
    while (this.#at < this.#lines.length && isBlank(this.#current())) this.#at++;
  }

  /**
   * The next non-blank line of a block whose entries sit at `indent`, or undefined at the end of
   * the text or of the block (a line indented less). Fails on a line indented more.
   */
  #entryLine(indent: number): string | undefined {
    this.#skipBlank();
    if (this.#at >= this.#lines.length) return undefined;
    const line = this.#current();
    const own = indentOf(line);
    if (own < indent) return undefined;
    if (own > indent) this.#fail('unexpected indentation');
    return line;
  }

  /** A block mapping or sequence whose entries sit at `indent`. */
  #block(indent: number): unknown {
    const text = this.#current().slice(indent);
    if (text.startsWith('\t')) this.#fail('tabs cannot indent YAML');
    return text === '-' || text.startsWith('- ') ? this.#sequence(indent) : this.#mapping(indent);
  }

  #mapping(indent: number): Record<string, unknown> {
    const result: Record<string, unknown> = {};
    for (;;) {
      const line = this.#entryLine(indent);
      if (line === undefined) break;
      const { key, rest } = this.#keyOf(line.slice(indent));
      if (Object.hasOwn(result, key)) this.#fail(`duplicate key ${JSON.stringify(key)}`);
      this.#at++;
      result[key] = this.#valueAfter(rest, indent);
    }
    return result;
  }

  #sequence(indent: number): unknown[] {
    const result: unknown[] = [];
    for (;;) {
      const line = this.#entryLine(indent);
      if (line === undefined) break;
      const item = line.slice(indent);
      if (item !== '-' && !item.startsWith('- ')) break;
      const rest = item.slice(1).trimStart();
      if (rest !== '' && !rest.startsWith('#') && /^[^"'[{]*:(\s|$)/.test(rest)) {
        // `- key: value` starts a mapping whose keys sit where `key` does.
        const inner = indent + item.length - item.slice(1).trimStart().length;
        this.#lines = replaceLine(this.#lines, this.#at, ' '.repeat(inner) + rest);
        result.push(this.#mapping(inner));
        continue;
      }
      this.#at++;
      result.push(this.#valueAfter(rest, indent));
    }
    return result;
  }

  #keyOf(text: string): { key: string; rest: string } {
    if (text.startsWith('"') || text.startsWith("'")) {
      const { value, end } = quoted(text, this.#raise);
      const after = text.slice(end);
      if (!/^\s*:(\s|$)/.test(after)) this.#fail('a quoted key must be followed by ":"');
      return { key: value, rest: after.slice(after.indexOf(':') + 1).trim() };
    }
    const match = /^([^#:[\]{},&*!|>'"%@`][^:]*?|[^:\s]):(?:\s+|$)(.*)$/.exec(text);
    if (match === null) this.#fail(`expected "key: value", got ${JSON.stringify(text)}`);
    return { key: (match[1] ?? '').trim(), rest: (match[2] ?? '').trim() };
  }

  /** The value that follows `key:` (or `- `) on a line at `indent`, with what nests under it. */
  #valueAfter(rest: string, indent: number): unknown {
    if (rest === '' || rest.startsWith('#')) {
      this.#skipBlank();
      if (this.#at >= this.#lines.length) return null;
      const next = this.#current();
      const own = indentOf(next);
      const item = next.slice(own);
      // A sequence may sit at its key's own indentation.
      if (own > indent || (own === indent && (item === '-' || item.startsWith('- ')))) {
        return this.#block(own);
      }
      return null;
    }
    if (/^[|>]/.test(rest)) return this.#blockScalar(rest, indent);
    if (/^[&*!]/.test(rest)) this.#fail('anchors, aliases and tags are not supported');
    if (rest.startsWith('"') || rest.startsWith("'")) {
      const { value, end } = quoted(rest, this.#raise);
      const after = rest.slice(end).trim();
      if (after !== '' && !after.startsWith('#')) this.#fail('text after a quoted scalar');
      return value;
    }
    if (rest.startsWith('[') || rest.startsWith('{')) {
      const flow = new FlowReader(stripComment(rest), this.#raise);
      return flow.all();
    }
    // A plain scalar, possibly continued on more indented lines.
    let text = stripComment(rest);
    while (this.#at < this.#lines.length) {
      const next = this.#current();
      if (isBlank(next) || indentOf(next) <= indent) break;
      if (/:(\s|$)/.test(next.trim())) this.#fail('unexpected mapping in a plain scalar');
      text += ` ${stripComment(next.trim())}`;
      this.#at++;
    }
    return resolvePlain(text);
  }

  /** A `|` or `>` block scalar whose lines are indented more than `indent`. */
  #blockScalar(header: string, indent: number): string {
    const match = /^([|>])([+-]?)(\d?)([+-]?)\s*(#.*)?$/.exec(header);
    if (match === null) this.#fail(`bad block scalar header ${JSON.stringify(header)}`);
    const folded = match[1] === '>';
    const chomp = match[2] === '' ? (match[4] ?? '') : (match[2] ?? '');
    const explicit = match[3] === '' ? undefined : indent + Number(match[3]);
    const collected: string[] = [];
    let contentIndent = explicit;
    while (this.#at < this.#lines.length) {
      const line = this.#current();
      if (line.trim() === '') {
        collected.push('');
        this.#at++;
        continue;
      }
      const own = indentOf(line);
      if (own <= indent) break;
      contentIndent ??= own;
      if (own < contentIndent) break;
      collected.push(line.slice(contentIndent));
      this.#at++;
    }
    let trailing = 0;
    while (collected.length > 0 && collected.at(-1) === '') {
      collected.pop();
      trailing++;
    }
    let text = folded ? fold(collected) : collected.join('\n');
    if (collected.length === 0) return '';
    if (chomp === '+') text += '\n'.repeat(trailing + 1);
    else if (chomp !== '-') text += '\n';
    return text;
  }
}

function replaceLine(lines: readonly string[], at: number, line: string): readonly string[] {
  const copy = [...lines];
  copy[at] = line;
  return copy;
}

/** Folds the lines of a `>` scalar: single line breaks become spaces, blank lines stay. */
function fold(lines: readonly string[]): string {
  let text = '';
  for (const [i, line] of lines.entries()) {
    if (i === 0) text = line;
    else if (line === '' || lines[i - 1] === '' || /^\s/.test(line)) text += `\n${line}`;
    else text += ` ${line}`;
  }
  return text;
}

function indentOf(line: string): number {
  return line.length - line.trimStart().length;
}

function isBlank(line: string): boolean {
  const trimmed = line.trim();
  return trimmed === '' || trimmed.startsWith('#');
}

function stripComment(text: string): string {
  const at = text.search(/\s#/);
  return (at < 0 ? text : text.slice(0, at)).trim();
}

const ESCAPES: Readonly<Record<string, string>> = {
  '0': '\0',
  a: '\x07',
  b: '\b',
  t: '\t',
  '\t': '\t',
  n: '\n',
  v: '\v',
  f: '\f',
  r: '\r',
  e: '\x1b',
  ' ': ' ',
  '"': '"',
  '/': '/',
  '\\': '\\',
  N: '\u0085',
  _: '\u00a0',
  L: '\u2028',
  P: '\u2029',
};

/** A quoted scalar at the start of `text`: its value and where it ends. */
function quoted(text: string, fail: (reason: string) => never): { value: string; end: number } {
  const quote = text[0];
  let value = '';
  for (let i = 1; i < text.length; i++) {
    const c = text[i] ?? '';
    if (quote === "'") {
      if (c !== "'") value += c;
      else if (text[i + 1] === "'") {
        value += "'";
        i++;
      } else return { value, end: i + 1 };
      continue;
    }
    if (c === '"') return { value, end: i + 1 };
    if (c !== '\\') {
      value += c;
      continue;
    }
    const next = text[++i] ?? '';
    const hex = { x: 2, u: 4, U: 8 }[next];
    if (hex !== undefined) {
      const digits = text.slice(i + 1, i + 1 + hex);
      if (!/^[0-9a-fA-F]+$/.test(digits) || digits.length !== hex) fail('bad escape');
      value += String.fromCodePoint(Number.parseInt(digits, 16));
      i += hex;
      continue;
    }
    const escaped = ESCAPES[next];
    if (escaped === undefined) fail(`unknown escape \\${next}`);
    value += escaped;
  }
  return fail('unterminated quoted scalar (multi-line quoted scalars are not supported)');
}

/** A plain scalar resolved as YAML 1.2's core schema. */
function resolvePlain(text: string): unknown {
  if (/^(null|Null|NULL|~)?$/.test(text)) return null;
  if (/^(true|True|TRUE)$/.test(text)) return true;
  if (/^(false|False|FALSE)$/.test(text)) return false;
  if (/^[-+]?[0-9]+$/.test(text)) return Number(text);
  if (/^0o[0-7]+$/.test(text)) return Number.parseInt(text.slice(2), 8);
  if (/^0x[0-9a-fA-F]+$/.test(text)) return Number.parseInt(text.slice(2), 16);
  if (/^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$/.test(text)) return Number(text);
  if (/^[-+]?\.(inf|Inf|INF)$/.test(text))
    return text.startsWith('-') ? -Infinity : Number.POSITIVE_INFINITY;
  if (/^\.(nan|NaN|NAN)$/.test(text)) return Number.NaN;
  if (/^[&*!]/.test(text)) {
    throw new FrontmatterError('anchors, aliases and tags are not supported');
  }
  return text;
}

/** Reads one line of flow collections (`[a, "b"]`, `{k: v}`) of scalars and collections. */
class FlowReader {
  readonly #text: string;
  readonly #fail: (reason: string) => never;
  #at = 0;

  constructor(text: string, fail: (reason: string) => never) {
    this.#text = text;
    this.#fail = fail;
  }

  all(): unknown {
    const value = this.#value();
    this.#space();
    if (this.#at < this.#text.length) this.#fail('text after a flow collection');
    return value;
  }

  #space(): void {
    while (/\s/.test(this.#text[this.#at] ?? '')) this.#at++;
  }

  #value(): unknown {
    this.#space();
    const c = this.#text[this.#at];
    if (c === '[') return this.#collection(']');
    if (c === '{') return this.#collection('}');
    if (c === '"' || c === "'") {
      const { value, end } = quoted(this.#text.slice(this.#at), this.#fail);
      this.#at += end;
      return value;
    }
    const match = /^[^,[\]{}]*/.exec(this.#text.slice(this.#at));
    const raw = match?.[0] ?? '';
    // In a mapping, a plain key ends at ": ".
    const colon = raw.search(/:(\s|$)/);
    const plain = colon < 0 ? raw : raw.slice(0, colon);
    this.#at += plain.length;
    return resolvePlain(plain.trim());
  }

  #collection(close: ']' | '}'): unknown {
    this.#at++;
    const list: unknown[] = [];
    const map: Record<string, unknown> = {};
    for (;;) {
      this.#space();
      if (this.#text[this.#at] === close) {
        this.#at++;
        return close === ']' ? list : map;
      }
      const value = this.#value();
      this.#space();
      if (close === '}') {
        if (this.#text[this.#at] !== ':') this.#fail('expected ":" in a flow mapping');
        this.#at++;
        map[String(value)] = this.#value();
        this.#space();
      } else list.push(value);
      const next = this.#text[this.#at];
      if (next === ',') this.#at++;
      else if (next !== close) this.#fail('unterminated flow collection');
    }
  }
}
