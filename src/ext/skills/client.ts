// The client's side of the skills extension (SEP-2640): checking skill entries, and verifying a
// skill file fetched with resources/read against its entry before anything uses it: its size,
// its sha256 digest (WebCrypto, so it runs wherever the client does) and, for SKILL.md, its
// frontmatter field by field. Any discrepancy is LocalError('PROTOCOL_VIOLATION'). And the
// extension itself (`client.extend(skillsClient())`): skills/list, skills/get and the verified
// reads on a connection whose server declares it, with the entries each connection has seen
// remembered to verify against.
import { LocalError, LocalErrorCode } from '../../client/index.js';
import type {
  CallOptions,
  ClientExtension,
  ClientExtensionHost,
  ListOptions,
} from '../../client/index.js';
import type { SkillEntry } from './protocol.js';
import {
  SKILLS_EXTENSION,
  SKILLS_GET_METHOD,
  SKILLS_LIST_METHOD,
  SKILLS_METHODS,
  FrontmatterError,
  formatDigest,
  frontmatterDifferences,
  isWithinSkill,
  parseSkillFile,
  skillEntryProblem,
} from './protocol.js';

/** One file of a skill, fetched and verified. */
export interface SkillFile {
  readonly uri: string;
  readonly mimeType: string | undefined;
  /** The file's raw bytes (the bytes its digest covers). */
  readonly bytes: Uint8Array;
  /** The file as text, when the server sent text. */
  readonly text: string | undefined;
  /** False only for a skill whose resources are `"dynamic"`: no digest to check against. */
  readonly verified: boolean;
}

/** A skill's SKILL.md, fetched and verified: its entry, its frontmatter and its body. */
export interface LoadedSkill {
  readonly entry: SkillEntry;
  readonly file: SkillFile;
  readonly frontmatter: Record<string, unknown>;
  /** The Markdown after the frontmatter. */
  readonly body: string;
}

export function violation(message: string): LocalError {
  return new LocalError(LocalErrorCode.ProtocolViolation, message);
}

/** `entry` as a SkillEntry; throws PROTOCOL_VIOLATION when it is malformed. */
export function checkedEntry(entry: unknown, method: string): SkillEntry {
  const problem = skillEntryProblem(entry);
  if (problem !== undefined) throw violation(`${method}: invalid skill entry: ${problem}`);
  return entry as SkillEntry;
}

/**
 * The file at `uri` from a resources/read `result`, verified against `entry`: `uri` must be one
 * of the entry's resources (or within the skill when they are "dynamic"), and the content's size
 * and sha256 digest must be the listed ones.
 */
export async function verifiedFile(
  entry: SkillEntry,
  uri: string,
  result: Record<string, unknown>,
): Promise<SkillFile> {
  const listed =
    entry.resources === 'dynamic' ? undefined : entry.resources.find((r) => r.uri === uri);
  const known =
    entry.resources === 'dynamic' ? isWithinSkill(entry.uri, uri) : listed !== undefined;
  if (!known) throw violation(`${uri} is not a file of the skill ${entry.uri}`);
  const { bytes, text, mimeType } = contentOf(uri, result);
  if (listed !== undefined) {
    if (bytes.byteLength !== listed.size) {
      throw violation(
        `${uri}: ${String(bytes.byteLength)} bytes read, but the skill entry lists ${String(listed.size)}: refused`,
      );
    }
    const digest = formatDigest(new Uint8Array(await crypto.subtle.digest('SHA-256', bytes)));
    if (digest !== listed.digest) {
      throw violation(`${uri}: digest ${digest} is not the listed ${listed.digest}: refused`);
    }
  }
  return { uri, mimeType, bytes, text, verified: listed !== undefined };
}

/** Parses a verified SKILL.md and checks its frontmatter against the entry's, field by field. */
export function loadedSkill(entry: SkillEntry, file: SkillFile): LoadedSkill {
  if (file.text === undefined) throw violation(`${entry.uri}: SKILL.md was not sent as text`);
  let parsed;
  try {
    parsed = parseSkillFile(file.text);
  } catch (error) {
    if (!(error instanceof FrontmatterError)) throw error;
    throw violation(`${entry.uri}: cannot read its frontmatter: ${error.message}`);
  }
  const differences = frontmatterDifferences(entry.frontmatter, parsed.frontmatter);
  if (differences.length > 0) {
    throw violation(
      `${entry.uri}: its frontmatter differs from the skill entry's (${differences.join(', ')}): refused`,
    );
  }
  return { entry, file, frontmatter: parsed.frontmatter, body: parsed.body };
}

const ENCODER = new TextEncoder();

/** The one content of `uri` in a resources/read result, as bytes. */
function contentOf(
  uri: string,
  result: Record<string, unknown>,
): { bytes: Uint8Array<ArrayBuffer>; text: string | undefined; mimeType: string | undefined } {
  const contents = Array.isArray(result['contents']) ? (result['contents'] as unknown[]) : [];
  const matching = contents.filter(
    (c): c is Record<string, unknown> =>
      typeof c === 'object' && c !== null && (c as Record<string, unknown>)['uri'] === uri,
  );
  const content = matching.length === 1 ? matching[0] : undefined;
  if (content === undefined) {
    throw violation(`resources/read of ${uri} did not return exactly one content for it`);
  }
  const mimeType = typeof content['mimeType'] === 'string' ? content['mimeType'] : undefined;
  const text = content['text'];
  if (typeof text === 'string') return { bytes: ENCODER.encode(text), text, mimeType };
  const blob = content['blob'];
  if (typeof blob !== 'string')
    throw violation(`resources/read of ${uri} has neither text nor blob`);
  let binary: string;
  try {
    binary = atob(blob);
  } catch {
    throw violation(`resources/read of ${uri}: blob is not base64`);
  }
  const bytes = Uint8Array.from(binary, (c) => c.charCodeAt(0));
  return { bytes, text: undefined, mimeType };
}

/** Options of {@link skillsClient}. */
export interface SkillsClientOptions {
  /** Most pages of skills/list that `list` follows (a positive integer). Default: 1000. */
  readonly maxPages?: number;
}

/** The API of the skills extension over one client: `client.extend(skillsClient())`. */
export interface SkillsApi {
  /**
   * Lists the server's skills (`skills/list`), following `nextCursor` (at most `maxPages` pages).
   * Only the entries are fetched: no skill file is read until asked ({@link SkillsApi.read},
   * {@link SkillsApi.readFile}). A malformed entry is left out and reported (`onError`). Rejects
   * with LocalError('UNSUPPORTED') when the server does not declare the extension (2026-07-28).
   */
  list(options?: ListOptions): Promise<SkillEntry[]>;
  /**
   * The entry of the skill whose SKILL.md is at `uri` (`skills/get`); it is what later reads of
   * the skill are verified against. A malformed entry, or one for another URI, rejects with
   * LocalError('PROTOCOL_VIOLATION').
   */
  get(uri: string, options?: CallOptions): Promise<SkillEntry>;
  /**
   * Loads a skill: reads its SKILL.md (`resources/read`) and verifies it against the skill's
   * entry (from `list` or `get`; fetched with `get` when not known yet): its size, its sha256
   * digest, and its frontmatter field by field. Any discrepancy rejects with
   * LocalError('PROTOCOL_VIOLATION') and nothing of the file is returned. Other files are not
   * read: {@link SkillsApi.readFile} reads them when needed.
   */
  read(uri: string, options?: CallOptions): Promise<LoadedSkill>;
  /**
   * Reads one file of the skill whose SKILL.md is at `skillUri` and verifies its size and digest
   * against the skill's entry (LocalError('PROTOCOL_VIOLATION') on any discrepancy, or when the
   * entry does not list `fileUri`). A skill whose resources are "dynamic" lists no digests: its
   * files come back with `verified: false`.
   */
  readFile(skillUri: string, fileUri: string, options?: CallOptions): Promise<SkillFile>;
}

/**
 * The skills extension for a client: `const skills = client.extend(skillsClient())`, then
 * `skills.list()`, `skills.read(uri)`. It declares nothing to servers. Throws TypeError when
 * `maxPages` is not a positive integer.
 */
export function skillsClient(options: SkillsClientOptions = {}): ClientExtension<SkillsApi> {
  const { maxPages = 1000 } = options;
  if (!(Number.isSafeInteger(maxPages) && maxPages > 0)) {
    throw new TypeError(`maxPages must be a positive integer, got ${String(maxPages)}`);
  }
  return {
    id: SKILLS_EXTENSION,
    methods: SKILLS_METHODS,
    bind: (host) => new SkillsRequests(host, maxPages),
  };
}

/** The extension's requests over one client, and the entries each connection has seen. */
class SkillsRequests implements SkillsApi {
  readonly #host: ClientExtensionHost;
  readonly #maxPages: number;
  /** The skill entries each connection has seen, by SKILL.md URI. */
  readonly #known = new WeakMap<object, Map<string, SkillEntry>>();

  constructor(host: ClientExtensionHost, maxPages: number) {
    this.#host = host;
    this.#maxPages = maxPages;
  }

  async list(options: ListOptions = {}): Promise<SkillEntry[]> {
    const known = this.#require();
    const maxPages = options.maxPages ?? this.#maxPages;
    const entries: SkillEntry[] = [];
    let cursor: string | undefined;
    for (let pages = 1; ; pages++) {
      const params = cursor === undefined ? {} : { cursor };
      const result = await this.#host.request(SKILLS_LIST_METHOD, params, options);
      entries.push(...this.#entriesOf(result));
      const next = result['nextCursor'];
      if (typeof next !== 'string') break;
      if (pages >= maxPages) throw violation(`skills/list returned more than ${maxPages} pages`);
      cursor = next;
    }
    for (const entry of entries) known.set(entry.uri, entry);
    return entries;
  }

  async get(uri: string, options: CallOptions = {}): Promise<SkillEntry> {
    const known = this.#require();
    const result = await this.#host.request(SKILLS_GET_METHOD, { uri }, options);
    const entry = checkedEntry(result['skill'], SKILLS_GET_METHOD);
    if (entry.uri !== uri) throw violation(`skills/get for ${uri} answered the skill ${entry.uri}`);
    known.set(uri, entry);
    return entry;
  }

  async read(uri: string, options: CallOptions = {}): Promise<LoadedSkill> {
    const entry = this.#require().get(uri) ?? (await this.get(uri, options));
    const result = await this.#host.request('resources/read', { uri }, options);
    return loadedSkill(entry, await verifiedFile(entry, uri, result));
  }

  async readFile(skillUri: string, fileUri: string, options: CallOptions = {}): Promise<SkillFile> {
    const entry = this.#require().get(skillUri) ?? (await this.get(skillUri, options));
    const result = await this.#host.request('resources/read', { uri: fileUri }, options);
    return verifiedFile(entry, fileUri, result);
  }

  /** The well-formed entries of one skills/list page; a malformed one is reported, left out. */
  #entriesOf(result: Record<string, unknown>): SkillEntry[] {
    const skills = result['skills'];
    if (!Array.isArray(skills)) throw violation('skills/list result has no "skills" array');
    const entries: SkillEntry[] = [];
    for (const item of skills as unknown[]) {
      try {
        entries.push(checkedEntry(item, SKILLS_LIST_METHOD));
      } catch (error) {
        this.#host.report(error);
      }
    }
    return entries;
  }

  /**
   * The entries seen over the current connection, when its server declares the extension:
   * rejects with LocalError('NOT_CONNECTED') without one, LocalError('UNSUPPORTED') when the
   * server does not declare the extension.
   */
  #require(): Map<string, SkillEntry> {
    const connection = this.#host.connection;
    const extensions = (this.#host.serverCapabilities as Record<string, unknown>)['extensions'];
    if (!isObject(extensions) || !isObject(extensions[SKILLS_EXTENSION])) {
      throw new LocalError(
        LocalErrorCode.Unsupported,
        `the server does not declare the skills extension (${SKILLS_EXTENSION})`,
      );
    }
    let entries = this.#known.get(connection);
    if (entries === undefined) {
      entries = new Map();
      this.#known.set(connection, entries);
    }
    return entries;
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
