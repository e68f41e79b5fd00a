// MCP naming rules as pure checks: tool names (spec 2025-11-25 server/tools#tool-names, from
// SEP-986) and `_meta` key names (spec 2025-11-25 basic/index#meta). The checks report every
// problem they find; callers decide what is fatal (the server rejects a bad tool name when it is
// registered). Uniqueness of tool names within a server is the tool registry's job.

/** The stable identifier of a {@link NameProblem}. */
export type NameProblemCode =
  | 'empty'
  | 'too-long'
  | 'invalid-char'
  | 'invalid-start'
  | 'invalid-end'
  | 'invalid-prefix'
  | 'invalid-label';

/** NameProblem is one way a name breaks a rule: a stable `code` and a lower-case `message`. */
export interface NameProblem {
  /** What is wrong, for programs: stable across releases. */
  code: NameProblemCode;
  /** What is wrong, for people. It does not repeat the name, so callers can prefix it. */
  message: string;
}

/** The longest tool name, in characters (spec 2025-11-25 server/tools#tool-names). */
export const TOOL_NAME_MAX_LENGTH = 128;

// The only characters a tool name may hold. Unlike SEP-986's draft, the spec does not allow '/'.
const TOOL_NAME = /^[A-Za-z0-9_.-]{1,128}$/;
const TOOL_NAME_CHAR = /^[A-Za-z0-9_.-]$/;

/**
 * Checks a tool name against spec 2025-11-25: 1 to 128 characters, each one of A-Z, a-z, 0-9,
 * `_`, `-` and `.` (so no spaces, commas, slashes or other special characters). Names are
 * case-sensitive. Returns no problems for a valid name.
 */
export function checkToolName(name: string): NameProblem[] {
  if (name === '') return [{ code: 'empty', message: 'is empty' }];
  const problems: NameProblem[] = [];
  const chars = Array.from(name); // code points, so an emoji counts once
  if (chars.length > TOOL_NAME_MAX_LENGTH) {
    problems.push({
      code: 'too-long',
      message: `is ${chars.length} characters long; the limit is ${TOOL_NAME_MAX_LENGTH}`,
    });
  }
  const invalid = distinct(chars.filter((ch) => !TOOL_NAME_CHAR.test(ch)));
  if (invalid.length > 0) {
    problems.push({
      code: 'invalid-char',
      message: `contains ${describeChars(invalid)}; only A-Z, a-z, 0-9, '_', '-' and '.' are allowed`,
    });
  }
  return problems;
}

/** Reports whether a tool name follows the spec's rules ({@link checkToolName} finds nothing). */
export function isValidToolName(name: string): boolean {
  return TOOL_NAME.test(name);
}

const LABEL_CHAR = /^[A-Za-z0-9-]$/;
const META_NAME_CHAR = /^[A-Za-z0-9._-]$/;
const ALPHANUMERIC = /^[A-Za-z0-9]$/;
const LETTER = /^[A-Za-z]$/;

/**
 * Checks a `_meta` key against spec 2025-11-25 (basic/index#meta): an optional prefix, which is
 * dot-separated labels followed by `/`, then a name. A label starts with a letter, ends with a
 * letter or digit, and holds letters, digits and hyphens. The name is empty, or starts and ends
 * with a letter or digit and holds letters, digits, `-`, `_` and `.`. So `""`, `progressToken`,
 * `com.example/` and `io.modelcontextprotocol/related-task` are all valid keys.
 */
export function checkMetaKey(key: string): NameProblem[] {
  const slash = key.indexOf('/');
  const problems = slash < 0 ? [] : checkMetaPrefix(key.slice(0, slash));
  problems.push(...checkMetaName(key.slice(slash + 1)));
  return problems;
}

function checkMetaPrefix(prefix: string): NameProblem[] {
  if (prefix === '') {
    return [{ code: 'invalid-prefix', message: "has an empty prefix: '/' must follow a label" }];
  }
  const problems: NameProblem[] = [];
  for (const [index, label] of prefix.split('.').entries()) {
    const problem = labelProblem(label);
    if (problem !== undefined) {
      problems.push({ code: 'invalid-label', message: `prefix label ${index + 1} ${problem}` });
    }
  }
  return problems;
}

/** What is wrong with one prefix label, or undefined. */
function labelProblem(label: string): string | undefined {
  if (label === '') return 'is empty';
  const chars = Array.from(label);
  const invalid = distinct(chars.filter((ch) => !LABEL_CHAR.test(ch)));
  const shown = JSON.stringify(label);
  if (invalid.length > 0) {
    return `${shown} contains ${describeChars(invalid)}; labels hold letters, digits and '-'`;
  }
  if (!LETTER.test(chars[0] ?? '')) return `${shown} must start with a letter`;
  if (!ALPHANUMERIC.test(chars.at(-1) ?? '')) return `${shown} must end with a letter or digit`;
  return undefined;
}

function checkMetaName(name: string): NameProblem[] {
  if (name === '') return [];
  const chars = Array.from(name);
  const invalid = distinct(chars.filter((ch) => !META_NAME_CHAR.test(ch)));
  if (invalid.length > 0) {
    const allowed = "names hold letters, digits, '-', '_' and '.'";
    return [{ code: 'invalid-char', message: `contains ${describeChars(invalid)}; ${allowed}` }];
  }
  const problems: NameProblem[] = [];
  const [first, last] = [chars[0] ?? '', chars.at(-1) ?? ''];
  if (!ALPHANUMERIC.test(first)) {
    problems.push({
      code: 'invalid-start',
      message: `name starts with ${describeChars([first])}; it must start with a letter or digit`,
    });
  }
  if (!ALPHANUMERIC.test(last)) {
    problems.push({
      code: 'invalid-end',
      message: `name ends with ${describeChars([last])}; it must end with a letter or digit`,
    });
  }
  return problems;
}

/**
 * Reports whether a `_meta` key's prefix is reserved for MCP (spec 2025-11-25): its second label
 * is `modelcontextprotocol` or `mcp`, as in `io.modelcontextprotocol/` and `dev.mcp/`, but not
 * `com.example.mcp/`. Labels compare case-insensitively, like the DNS names they mirror. A key
 * without a prefix is not reserved.
 */
export function isReservedMetaPrefix(key: string): boolean {
  const slash = key.indexOf('/');
  if (slash < 0) return false;
  const second = key.slice(0, slash).split('.')[1]?.toLowerCase();
  return second === 'modelcontextprotocol' || second === 'mcp';
}

function distinct(chars: readonly string[]): string[] {
  return [...new Set(chars)];
}

/** "character '/'" or "characters U+0020, ','": quoted, or as U+XXXX when invisible. */
function describeChars(chars: readonly string[]): string {
  const shown = chars.map((ch) => {
    if (!/^[\p{Z}\p{C}]$/u.test(ch)) return `'${ch}'`;
    return `U+${(ch.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`;
  });
  return `${shown.length === 1 ? 'character' : 'characters'} ${shown.join(', ')}`;
}
