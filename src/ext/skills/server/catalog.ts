// The skills a server publishes (the skills extension, SEP-2640): their entries as skills/list
// and skills/get answer them, and their directories as resources/directory/read lists them.
// Built from files already read (see load.ts); no I/O here, so a server can hold one in
// any runtime.
import type { DirectoryResource, SkillEntry } from '../protocol.js';
import { DIRECTORY_MIME_TYPE, skillFileUri } from '../protocol.js';

/** One file of a published skill, read and hashed. */
export interface PublishedFile {
  /** Its path within the skill's folder, with `/` separators (`SKILL.md`, `references/A.md`). */
  readonly path: string;
  readonly uri: string;
  readonly mimeType: string;
  readonly size: number;
  /** The file's text when it is UTF-8 text, else undefined (served as a blob). */
  readonly text: string | undefined;
  readonly bytes: Uint8Array;
}

/** A skill ready to publish: its entry and its files. */
export interface PublishedSkill {
  readonly name: string;
  readonly entry: SkillEntry;
  readonly files: readonly PublishedFile[];
}

/** The skills of one server. */
export class SkillCatalog {
  readonly #skills = new Map<string, PublishedSkill>();
  readonly #byUri = new Map<string, SkillEntry>();
  readonly #directories = new Map<string, DirectoryResource[]>();
  #entries: readonly SkillEntry[] | undefined;

  /** How many skills are published. */
  get size(): number {
    return this.#skills.size;
  }

  /** True when a skill of this name is published. */
  has(name: string): boolean {
    return this.#skills.has(name);
  }

  /** Publishes `skill`; throws TypeError when one of its name is published already. */
  add(skill: PublishedSkill): void {
    if (this.#skills.has(skill.name)) {
      throw new TypeError(`skill "${skill.name}" is already published`);
    }
    this.#skills.set(skill.name, skill);
    this.#byUri.set(skill.entry.uri, skill.entry);
    for (const [uri, children] of directoriesOf(skill)) this.#directories.set(uri, children);
    this.#entries = undefined;
  }

  /** Every entry, by skill name. */
  entries(): readonly SkillEntry[] {
    this.#entries ??= [...this.#skills.values()]
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
      .map((skill) => skill.entry);
    return this.#entries;
  }

  /** The entry of the skill whose SKILL.md is at `uri`. */
  entry(uri: string): SkillEntry | undefined {
    return this.#byUri.get(uri);
  }

  /** The direct children of the directory at `uri` (a trailing `/` is ignored), if it is one. */
  directory(uri: string): readonly DirectoryResource[] | undefined {
    return this.#directories.get(uri.endsWith('/') ? uri.slice(0, -1) : uri);
  }
}

/** The directories of a skill (its root and every folder under it) and their children. */
function directoriesOf(skill: PublishedSkill): Map<string, DirectoryResource[]> {
  const root = `skill://${skill.name}`;
  const directories = new Map<string, DirectoryResource[]>([[root, []]]);
  const folderUri = (segments: readonly string[]): string =>
    segments.length === 0 ? root : skillFileUri(skill.name, segments.join('/'));
  for (const file of skill.files) {
    const segments = file.path.split('/');
    // Each folder on the way is a child of its parent, listed once.
    for (let depth = 1; depth < segments.length; depth++) {
      const uri = folderUri(segments.slice(0, depth));
      if (directories.has(uri)) continue;
      directories.set(uri, []);
      directories.get(folderUri(segments.slice(0, depth - 1)))?.push({
        uri,
        name: segments[depth - 1] ?? '',
        mimeType: DIRECTORY_MIME_TYPE,
      });
    }
    directories.get(folderUri(segments.slice(0, -1)))?.push({
      uri: file.uri,
      name: segments.at(-1) ?? file.path,
      mimeType: file.mimeType,
      size: file.size,
    });
  }
  return directories;
}
