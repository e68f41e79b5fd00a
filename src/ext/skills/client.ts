// The client's side of the skills extension (SEP-2640): checking skill entries, and verifying a
// skill file fetched with resources/read against its entry before anything uses it: its size,
// its sha256 digest (WebCrypto, so it runs wherever the client does) and, for SKILL.md, its
// frontmatter field by field. Any discrepancy is LocalError('PROTOCOL_VIOLATION'). And the
// requests of the extension on a session whose server declares it: skills/list, skills/get and
// the verified reads, with the entries each session has seen remembered to verify against.
import { LocalError, LocalErrorCode } from '../jsonrpc/errors.js';
import type { SkillEntry } from '../protocol/skills.js';
import type { ClientSession } from './session.js';
import type { CallOptions, ListOptions } from './types.js';
import {
  SKILLS_GET_METHOD,
  SKILLS_LIST_METHOD,
  FrontmatterError,
  formatDigest,
  frontmatterDifferences,
  isWithinSkill,
  parseSkillFile,
  skillEntryProblem,
} from '../protocol/skills.js';

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

/** The skill entries each session has seen, by SKILL.md URI. */
const knownSkills = new WeakMap<ClientSession, Map<string, SkillEntry>>();

function known(session: ClientSession): Map<string, SkillEntry> {
  let entries = knownSkills.get(session);
  if (entries === undefined) {
    entries = new Map();
    knownSkills.set(session, entries);
  }
  return entries;
}

/** skills/list, following `nextCursor` up to `maxPages`; a malformed entry is reported and left out. */
export async function listSkills(
  session: ClientSession,
  options: ListOptions,
  maxPages: number,
): Promise<SkillEntry[]> {
  const entries: SkillEntry[] = [];
  let cursor: string | undefined;
  for (let pages = 1; ; pages++) {
    const params = cursor === undefined ? {} : { cursor };
    const result = await session.caller.request(SKILLS_LIST_METHOD, params, options);
    const skills = result['skills'];
    if (!Array.isArray(skills)) throw violation('skills/list result has no "skills" array');
    for (const item of skills as unknown[]) {
      try {
        entries.push(checkedEntry(item, SKILLS_LIST_METHOD));
      } catch (error) {
        session.report(error);
      }
    }
    const next = result['nextCursor'];
    if (typeof next !== 'string') break;
    if (pages >= maxPages) throw violation(`skills/list returned more than ${maxPages} pages`);
    cursor = next;
  }
  const seen = known(session);
  for (const entry of entries) seen.set(entry.uri, entry);
  return entries;
}

/** skills/get for the skill whose SKILL.md is at `uri`, checked to be that skill's entry. */
export async function getSkill(
  session: ClientSession,
  uri: string,
  options: CallOptions,
): Promise<SkillEntry> {
  const result = await session.caller.request(SKILLS_GET_METHOD, { uri }, options);
  const entry = checkedEntry(result['skill'], SKILLS_GET_METHOD);
  if (entry.uri !== uri) throw violation(`skills/get for ${uri} answered the skill ${entry.uri}`);
  known(session).set(uri, entry);
  return entry;
}

/** The skill's SKILL.md, read and verified against its entry (fetched first when not known). */
export async function readSkill(
  session: ClientSession,
  uri: string,
  options: CallOptions,
): Promise<LoadedSkill> {
  const entry = known(session).get(uri) ?? (await getSkill(session, uri, options));
  const result = await session.caller.request('resources/read', { uri }, options);
  return loadedSkill(entry, await verifiedFile(entry, uri, result));
}

/** One file of a skill, read and verified against the skill's entry (fetched first when not known). */
export async function readSkillFile(
  session: ClientSession,
  { skillUri, fileUri }: { skillUri: string; fileUri: string },
  options: CallOptions,
): Promise<SkillFile> {
  const entry = known(session).get(skillUri) ?? (await getSkill(session, skillUri, options));
  const result = await session.caller.request('resources/read', { uri: fileUri }, options);
  return verifiedFile(entry, fileUri, result);
}
