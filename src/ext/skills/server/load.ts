// Reads a folder of skills from disk (the skills extension, SEP-2640): each subfolder with a
// SKILL.md is one skill, its files read, hashed (sha256) and checked. The only module of the
// extension that does I/O: node:fs/promises, node:path and node:crypto are imported when it runs,
// so a server that publishes no skills never loads them (browsers, workers).
import type * as FsPromises from 'node:fs/promises';
import type * as NodePath from 'node:path';
import type { SkillFrontmatter, SkillResourceEntry } from '../protocol.js';
import {
  FrontmatterError,
  MAX_SKILL_BYTES,
  MAX_SKILL_RESOURCES,
  SKILL_FILE,
  formatDigest,
  frontmatterProblem,
  parseSkillFile,
  skillFileUri,
} from '../protocol.js';
import type { PublishedFile, PublishedSkill } from './catalog.js';
import { messageOf } from '../../../internal/message-of.js';

type Fs = typeof FsPromises;
type Path = typeof NodePath;
type Hash = (bytes: Uint8Array) => Uint8Array;

interface Io {
  readonly fs: Fs;
  readonly path: Path;
  readonly hash: Hash;
}

/** Media types by file extension; other files are text/plain (UTF-8) or application/octet-stream. */
const MEDIA_TYPES: Readonly<Record<string, string>> = {
  md: 'text/markdown',
  markdown: 'text/markdown',
  txt: 'text/plain',
  json: 'application/json',
  yaml: 'application/yaml',
  yml: 'application/yaml',
  toml: 'application/toml',
  xml: 'application/xml',
  html: 'text/html',
  css: 'text/css',
  csv: 'text/csv',
  js: 'text/javascript',
  mjs: 'text/javascript',
  ts: 'text/x-typescript',
  py: 'text/x-python',
  sh: 'text/x-shellscript',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  svg: 'image/svg+xml',
  pdf: 'application/pdf',
};

/**
 * Loads every skill under `root`: each subfolder that holds a SKILL.md (others, and names that
 * start with `.`, are left out). Throws TypeError naming the folder and the problem when `root`
 * cannot be read or a skill is bad: SKILL.md without valid frontmatter, a name that breaks the
 * naming rules or differs from the folder's, a symlink or special file, more than 512 files or
 * more than 16 MiB.
 */
export async function loadSkills(root: string): Promise<PublishedSkill[]> {
  const fs = await import('node:fs/promises');
  const path = await import('node:path');
  const { createHash } = await import('node:crypto');
  const io: Io = { fs, path, hash: (bytes) => createHash('sha256').update(bytes).digest() };
  let entries;
  try {
    entries = await fs.readdir(root, { withFileTypes: true });
  } catch (error) {
    throw new TypeError(`skills folder ${root}: cannot read it (${messageOf(error)})`, {
      cause: error,
    });
  }
  const skills: PublishedSkill[] = [];
  const folders = entries
    .filter((e) => e.isDirectory() && !e.name.startsWith('.'))
    .map((e) => e.name)
    .sort();
  for (const name of folders) {
    const folder = path.join(root, name);
    if (!(await isFile(io, path.join(folder, SKILL_FILE)))) continue;
    skills.push(await loadSkill(io, folder, name));
  }
  return skills;
}

async function isFile(io: Io, file: string): Promise<boolean> {
  try {
    return (await io.fs.lstat(file)).isFile();
  } catch {
    return false;
  }
}

/** Loads the skill in `folder`, whose folder name is `name`. */
async function loadSkill(io: Io, folder: string, name: string): Promise<PublishedSkill> {
  const bad = (problem: string): TypeError => new TypeError(`skill folder ${folder}: ${problem}`);
  const paths = await listFiles(io, folder, bad);
  if (paths.length > MAX_SKILL_RESOURCES) {
    throw bad(`it has ${String(paths.length)} files, more than ${String(MAX_SKILL_RESOURCES)}`);
  }
  const files: { path: string; bytes: Uint8Array }[] = [];
  let total = 0;
  for (const relative of paths) {
    const bytes = new Uint8Array(
      await io.fs.readFile(io.path.join(folder, ...relative.split('/'))),
    );
    total += bytes.byteLength;
    if (total > MAX_SKILL_BYTES) {
      throw bad(`its files add up to more than ${String(MAX_SKILL_BYTES)} bytes (16 MiB)`);
    }
    files.push({ path: relative, bytes });
  }
  return buildSkill(name, files, { hash: io.hash, bad });
}

/**
 * Builds one skill from files given in memory (`SKILL.md` and others by `/`-separated path):
 * the same checks as a folder's. Throws TypeError naming the skill and the problem.
 */
export async function skillFromFiles(
  name: string,
  given: Readonly<Record<string, string | Uint8Array>>,
): Promise<PublishedSkill> {
  const { createHash } = await import('node:crypto');
  const bad = (problem: string): TypeError => new TypeError(`skill "${name}": ${problem}`);
  const paths = Object.keys(given).sort((a, b) =>
    a === SKILL_FILE ? -1 : b === SKILL_FILE ? 1 : a < b ? -1 : a > b ? 1 : 0,
  );
  if (paths.length > MAX_SKILL_RESOURCES) {
    throw bad(`it has ${String(paths.length)} files, more than ${String(MAX_SKILL_RESOURCES)}`);
  }
  const encoder = new TextEncoder();
  const files = paths.map((path) => {
    if (
      path === '' ||
      path.startsWith('/') ||
      path.split('/').some((part) => part === '..' || part === '')
    ) {
      throw bad(`${JSON.stringify(path)} is not a relative path within the skill`);
    }
    const content = given[path] ?? '';
    return { path, bytes: typeof content === 'string' ? encoder.encode(content) : content };
  });
  const total = files.reduce((sum, file) => sum + file.bytes.byteLength, 0);
  if (total > MAX_SKILL_BYTES) {
    throw bad(`its files add up to more than ${String(MAX_SKILL_BYTES)} bytes (16 MiB)`);
  }
  const hash: Hash = (bytes) => createHash('sha256').update(bytes).digest();
  return buildSkill(name, files, { hash, bad });
}

/** Checks a skill's files and builds its entry: the part shared by folders and memory. */
function buildSkill(
  name: string,
  read: readonly { path: string; bytes: Uint8Array }[],
  how: { hash: Hash; bad: (problem: string) => TypeError },
): PublishedSkill {
  const { bad } = how;
  const files = read.map(({ path, bytes }) => publishedFile(name, path, bytes));
  const skillFile = files.find((f) => f.path === SKILL_FILE);
  if (skillFile === undefined) throw bad(`it has no ${SKILL_FILE}`);
  if (skillFile.text === undefined) throw bad(`${SKILL_FILE} is not UTF-8 text`);
  let frontmatter: Record<string, unknown>;
  try {
    frontmatter = parseSkillFile(skillFile.text).frontmatter;
  } catch (error) {
    if (!(error instanceof FrontmatterError)) throw error;
    throw bad(`${SKILL_FILE}: ${error.message}`);
  }
  const problem = frontmatterProblem(frontmatter);
  if (problem !== undefined) throw bad(`${SKILL_FILE}: ${problem}`);
  if (frontmatter['name'] !== name) {
    throw bad(
      `${SKILL_FILE} names the skill ${JSON.stringify(frontmatter['name'])}, but its folder is "${name}" (they must be equal)`,
    );
  }
  const resources: SkillResourceEntry[] = files.map((file) => ({
    uri: file.uri,
    digest: formatDigest(how.hash(file.bytes)),
    size: file.size,
  }));
  const entry = {
    uri: skillFile.uri,
    frontmatter: frontmatter as SkillFrontmatter,
    resources,
  };
  return { name, entry, files };
}

/** The files under `folder`, as sorted `/`-separated relative paths, SKILL.md first. */
async function listFiles(
  io: Io,
  folder: string,
  bad: (problem: string) => TypeError,
): Promise<string[]> {
  const found: string[] = [];
  const walk = async (relative: string): Promise<void> => {
    const entries = await io.fs.readdir(
      io.path.join(folder, ...relative.split('/').filter(Boolean)),
      {
        withFileTypes: true,
      },
    );
    for (const entry of entries) {
      if (entry.name.startsWith('.')) continue;
      const path = relative === '' ? entry.name : `${relative}/${entry.name}`;
      if (entry.isSymbolicLink()) throw bad(`${path} is a symbolic link (not published)`);
      if (entry.isDirectory()) await walk(path);
      else if (entry.isFile()) found.push(path);
      else throw bad(`${path} is not a regular file`);
    }
  };
  await walk('');
  found.sort((a, b) => (a === SKILL_FILE ? -1 : b === SKILL_FILE ? 1 : a < b ? -1 : a > b ? 1 : 0));
  return found;
}

const UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

function publishedFile(skill: string, path: string, bytes: Uint8Array): PublishedFile {
  let text: string | undefined;
  try {
    text = UTF8.decode(bytes);
    if (text.includes('\0')) text = undefined;
  } catch {
    text = undefined;
  }
  const extension = /\.([^./]+)$/.exec(path)?.[1]?.toLowerCase() ?? '';
  const mimeType =
    MEDIA_TYPES[extension] ?? (text === undefined ? 'application/octet-stream' : 'text/plain');
  return { path, uri: skillFileUri(skill, path), mimeType, size: bytes.byteLength, text, bytes };
}
