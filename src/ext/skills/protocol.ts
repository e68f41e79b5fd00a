// The skills extension (io.modelcontextprotocol/skills, SEP-2640) on 2026-07-28: its identifier,
// its methods, the wire shape of a skill entry, and the pure helpers both sides need: the
// SKILL.md frontmatter (read in the YAML subset of yaml-subset.ts), the skill name rules,
// `skill://` URIs, sha256 digests as text and the comparison of frontmatter. No I/O.
import type { MethodDeclaration, ProtocolRevision } from '../../protocol/index.js';
import { FrontmatterError, parseYamlSubset } from './yaml-subset.js';

export { FrontmatterError } from './yaml-subset.js';

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
export const SKILLS_REVISIONS: readonly ProtocolRevision[] = ['2026-07-28'];

/** One of the extension's methods: a client's request, its 2026-07-28 result cacheable. */
const SKILLS_METHOD: MethodDeclaration = {
  kind: 'request',
  direction: 'client-to-server',
  revisions: SKILLS_REVISIONS,
  cacheable: true,
};

/** The names of the methods the extension adds. */
export type SkillsMethod =
  typeof SKILLS_LIST_METHOD | typeof SKILLS_GET_METHOD | typeof DIRECTORY_READ_METHOD;

/** The methods the extension adds, as an extension declares them into the method table. */
export const SKILLS_METHODS: Readonly<Record<SkillsMethod, MethodDeclaration>> = {
  [SKILLS_LIST_METHOD]: SKILLS_METHOD,
  [SKILLS_GET_METHOD]: SKILLS_METHOD,
  [DIRECTORY_READ_METHOD]: SKILLS_METHOD,
};

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
  const parsed = parseYamlSubset(yaml);
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
