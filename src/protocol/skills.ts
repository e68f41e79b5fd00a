// The skills extension (io.modelcontextprotocol/skills, SEP-2640) on 2026-07-28: its identifier,
// its methods, the wire shape of a skill entry, and the pure helpers both sides need: the
// SKILL.md frontmatter (a YAML subset, parsed without eval or a YAML dependency), the skill name
// rules, `skill://` URIs, sha256 digests as text and the comparison of frontmatter. No I/O.

/** The extension's identifier, in `capabilities.extensions`. */
export const SKILLS_EXTENSION = 'io.modelcontextprotocol/skills';

/** Lists the skills a server serves (paginated). */
export const SKILLS_LIST_METHOD = 'skills/list';
/** Returns the entry of one skill, named by the URI of its SKILL.md. */
export const SKILLS_GET_METHOD = 'skills/get';
/** Lists the direct children of a directory resource (when `directoryRead: true`). */
export const DIRECTORY_READ_METHOD = 'resources/directory/read';

/** The `mimeType` of a directory resource (a child of a directory that is itself a directory). */
export const DIRECTORY_MIME_TYPE = 'inode/directory';

/** The file at the root of every skill. */
export const SKILL_FILE = 'SKILL.md';

/** The URI scheme servers should use for skill files. */
export const SKILL_SCHEME = 'skill:';

/** Most resource entries a skill should have, SKILL.md included. */
export const MAX_SKILL_RESOURCES: number = 512;

/** Most bytes the files of one skill should add up to (16 MiB). */
export const MAX_SKILL_BYTES: number = 16 * 1024 * 1024;

/** The revisions the extension applies to. */
export const SKILLS_REVISIONS: readonly string[] = ['2026-07-28'];

/** The methods the extension adds. */
export const SKILLS_METHODS: ReadonlySet<string> = new Set([
  SKILLS_LIST_METHOD,
  SKILLS_GET_METHOD,
  DIRECTORY_READ_METHOD,
]);

/** True when `method` is one of the extension's methods in `revision`. */
export function isSkillsMethod(method: string, revision: string): boolean {
  return SKILLS_METHODS.has(method) && SKILLS_REVISIONS.includes(revision);
}

/** The extension's settings in `capabilities.extensions` (inline, SEP-2133). */
export interface SkillsCapability {
  /** The server serves `resources/directory/read` on skill directories. */
  directoryRead?: boolean;
}

/** One file of a skill, with what a host needs to verify it. */
export interface SkillResourceEntry {
  /** The file's resource URI: the skill's SKILL.md or a file within the skill's directory. */
  readonly uri: string;
  /** `sha256:` and the 64 lowercase hex digits of the SHA-256 of the file's raw bytes. */
  readonly digest: string;
  /** The length of the file's raw bytes. */
  readonly size: number;
}

/** A SKILL.md's YAML frontmatter as JSON, verbatim: `name` and `description` at least. */
export interface SkillFrontmatter {
  readonly name: string;
  readonly description: string;
  readonly [key: string]: unknown;
}

/** One skill, as `skills/list` and `skills/get` carry it. */
export interface SkillEntry {
  /** The resource URI of the skill's SKILL.md. */
  readonly uri: string;
  readonly frontmatter: SkillFrontmatter;
  /** Every file of the skill, each once (SKILL.md included), or `"dynamic"`. */
  readonly resources: readonly SkillResourceEntry[] | 'dynamic';
  readonly _meta?: Readonly<Record<string, unknown>>;
}

/** A child of a directory, as `resources/directory/read` lists it. */
export interface DirectoryResource {
  readonly uri: string;
  readonly name: string;
  readonly mimeType?: string;
  readonly size?: number;
  readonly description?: string;
}

/** The Agent Skills name rules: 1–64 of a-z, 0-9 and `-`, no leading, trailing or double `-`. */
const NAME = /^(?!.*--)[a-z0-9]([a-z0-9-]{0,62}[a-z0-9])?$/;

/** Why `name` breaks the Agent Skills naming rules, or undefined when it follows them. */
export function skillNameProblem(name: unknown): string | undefined {
  if (typeof name !== 'string' || name === '') return 'the name must be a non-empty string';
  if (name.length > 64) return `the name ${JSON.stringify(name)} is longer than 64 characters`;
  if (!NAME.test(name)) {
    return `the name ${JSON.stringify(name)} must be lowercase letters, digits and single hyphens, with no hyphen first or last`;
  }
  return undefined;
}

/** The `skill://` URI of a file of skill `name`: `path` is relative to the skill's folder. */
export function skillFileUri(name: string, path: string = SKILL_FILE): string {
  const encoded = path
    .split('/')
    .map((segment) => encodeURIComponent(segment))
    .join('/');
  return `skill://${name}/${encoded}`;
}

/** The URI of the directory of the skill whose SKILL.md is at `skillUri` (undefined if it is not one). */
export function skillDirectoryOf(skillUri: string): string | undefined {
  const suffix = `/${SKILL_FILE}`;
  if (!skillUri.endsWith(suffix) || !skillUri.includes('://')) return undefined;
  const directory = skillUri.slice(0, -suffix.length);
  return directory.endsWith('://') ? undefined : directory;
}

/** The skill name of a SKILL.md URI: its final skill-path segment (undefined if it is not one). */
export function skillNameOf(skillUri: string): string | undefined {
  const directory = skillDirectoryOf(skillUri);
  if (directory === undefined) return undefined;
  const segments = directory.slice(directory.indexOf('://') + 3).split('/');
  return segments.filter((s) => s !== '').at(-1);
}

/** True when `uri` is the skill's SKILL.md (`skillUri`) or a file within its directory. */
export function isWithinSkill(skillUri: string, uri: string): boolean {
  if (uri === skillUri) return true;
  const directory = skillDirectoryOf(skillUri);
  if (directory === undefined || !uri.startsWith(`${directory}/`)) return false;
  return !uri
    .slice(directory.length + 1)
    .split('/')
    .some((s) => s === '' || s === '.' || s === '..');
}

const DIGEST = /^sha256:[0-9a-f]{64}$/;

/** True when `digest` is `sha256:` and 64 lowercase hex digits. */
export function isSkillDigest(digest: unknown): digest is string {
  return typeof digest === 'string' && DIGEST.test(digest);
}

/** A SHA-256 (32 bytes) as a skill digest. */
export function formatDigest(hash: Uint8Array): string {
  let hex = '';
  for (const byte of hash) hex += byte.toString(16).padStart(2, '0');
  return `sha256:${hex}`;
}

/** Why `entry` is not a well-formed skill entry, or undefined when it is. */
export function skillEntryProblem(entry: unknown): string | undefined {
  if (!isRecord(entry)) return 'the entry is not an object';
  const { uri, frontmatter, resources } = entry;
  if (typeof uri !== 'string' || uri === '') return 'the entry has no uri';
  if (!isRecord(frontmatter)) return `${uri}: frontmatter is not an object`;
  if (typeof frontmatter['name'] !== 'string' || frontmatter['name'] === '')
    return `${uri}: frontmatter.name is missing`;
  if (typeof frontmatter['description'] !== 'string' || frontmatter['description'] === '')
    return `${uri}: frontmatter.description is missing`;
  if (skillNameOf(uri) !== frontmatter['name'])
    return `${uri}: the final skill-path segment is not frontmatter.name (${JSON.stringify(frontmatter['name'])})`;
  if (resources === 'dynamic') return undefined;
  if (!Array.isArray(resources)) return `${uri}: resources is neither an array nor "dynamic"`;
  const seen = new Set<string>();
  for (const item of resources as unknown[]) {
    if (!isRecord(item) || typeof item['uri'] !== 'string')
      return `${uri}: a resources entry has no uri`;
    const file = item['uri'];
    if (seen.has(file)) return `${uri}: resources lists ${file} twice`;
    seen.add(file);
    if (!isWithinSkill(uri, file)) return `${uri}: resource ${file} is outside the skill`;
    if (!isSkillDigest(item['digest'])) return `${uri}: resource ${file} has no sha256 digest`;
    const size = item['size'];
    if (typeof size !== 'number' || !Number.isSafeInteger(size) || size < 0)
      return `${uri}: resource ${file} has no size`;
  }
  if (!seen.has(uri)) return `${uri}: resources has no entry for the SKILL.md itself`;
  return undefined;
}

/** A SKILL.md split into its frontmatter and its body. */
export interface ParsedSkillFile {
  readonly frontmatter: Record<string, unknown>;
  readonly body: string;
}

/** Thrown by {@link parseSkillFile} on a SKILL.md whose frontmatter it cannot read. */
export class FrontmatterError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'FrontmatterError';
  }
}

const OPENING = /^---[ \t]*\r?\n/;
const CLOSING = /^---[ \t]*$/;

/**
 * Splits a SKILL.md into its YAML frontmatter (between a first line `---` and the next `---`)
 * and its body. The YAML is a subset: block mappings and sequences, plain, quoted, flow (`[a, b]`,
 * `{a: b}`) and block (`|`, `>`) scalars, comments; plain scalars resolve as YAML 1.2's core
 * schema (null, booleans, numbers). Anchors, aliases, tags and documents are refused. Throws
 * {@link FrontmatterError} when there is no frontmatter or it is outside the subset.
 */
export function parseSkillFile(text: string): ParsedSkillFile {
  const source = text.startsWith('\uFEFF') ? text.slice(1) : text;
  const opening = OPENING.exec(source);
  if (opening === null) throw new FrontmatterError('it does not begin with a --- line');
  const lines = source.slice(opening[0].length).split('\n');
  const end = lines.findIndex((line) => CLOSING.test(line.replace(/\r$/, '')));
  if (end < 0) throw new FrontmatterError('its frontmatter has no closing --- line');
  const yaml = lines.slice(0, end).map((line) => line.replace(/\r$/, ''));
  const body = lines.slice(end + 1).join('\n');
  const parsed = new YamlSubset(yaml).document();
  if (!isRecord(parsed)) throw new FrontmatterError('its frontmatter is not a mapping');
  return { frontmatter: parsed, body };
}

/** Why the parsed `frontmatter` is not a valid skill frontmatter, or undefined. */
export function frontmatterProblem(frontmatter: Record<string, unknown>): string | undefined {
  const { name, description, metadata } = frontmatter;
  if (typeof name !== 'string' || name === '') return 'the frontmatter has no name';
  const nameProblem = skillNameProblem(name);
  if (nameProblem !== undefined) return nameProblem;
  if (typeof description !== 'string' || description.trim() === '')
    return 'the frontmatter has no description';
  if (metadata !== undefined && metadata !== null) {
    if (!isRecord(metadata)) return 'metadata must be a mapping';
    const reserved = Object.keys(metadata).find((k) => k.startsWith('io.modelcontextprotocol/'));
    if (reserved !== undefined)
      return `metadata key ${JSON.stringify(reserved)} uses the reserved io.modelcontextprotocol/ prefix`;
  }
  return undefined;
}

/**
 * The fields on which two frontmatter objects differ (deep, key order ignored; an absent field
 * equals null, as YAML has it). Empty when they are identical in content.
 */
export function frontmatterDifferences(a: Readonly<Record<string, unknown>>, b: unknown): string[] {
  if (!isRecord(b)) return ['(the whole frontmatter)'];
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  return [...keys].filter((key) => !sameJson(a[key] ?? null, b[key] ?? null));
}

function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a)) {
    return Array.isArray(b) && a.length === b.length && a.every((v, i) => sameJson(v, b[i]));
  }
  if (isRecord(a) && isRecord(b)) {
    const keys = Object.keys(a);
    return (
      keys.length === Object.keys(b).length &&
      keys.every((k) => Object.hasOwn(b, k) && sameJson(a[k], b[k]))
    );
  }
  return false;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Reads the YAML subset of {@link parseSkillFile} from its lines. */
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
