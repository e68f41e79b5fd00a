// The skills extension's server (SEP-2640, 2026-07-28) on the extension seam: skills/list,
// skills/get and resources/directory/read served from the extension's SkillCatalog, each file of
// a skill a resource of the server, and the capability declared once a skill is published. A
// server that publishes no skills does not declare the extension and answers its methods -32601.
import { ErrorCode, JsonRpcError } from '../../../jsonrpc/index.js';
import { invalidParams } from '../../../protocol/index.js';
import type {
  ExtensionCall,
  ExtensionCapability,
  ExtensionHost,
  ExtensionMethod,
  RegisteredHandle,
  ResourceDefinition,
  ServerExtension,
} from '../../../server/index.js';
import type { SkillEntry, SkillsCapability, SkillsMethod } from '../protocol.js';
import {
  DIRECTORY_READ_METHOD,
  SKILLS_EXTENSION,
  SKILLS_GET_METHOD,
  SKILLS_LIST_METHOD,
  SKILLS_METHODS,
} from '../protocol.js';
import type { PublishedSkill } from './catalog.js';
import { SkillCatalog } from './catalog.js';

/**
 * The skills extension of one server, made by {@link skills}: add it with `server.extend()`, and
 * publish skills with `load` or `add`, before or after. Skills published before it is added are
 * registered when it is; after, at once.
 */
export interface SkillsExtension extends ServerExtension {
  /**
   * Publishes the skills in the folder `dir`: each subfolder with a SKILL.md is a skill named by
   * its frontmatter (which must equal the folder's name). Every file becomes a
   * `skill://<name>/<path>` resource; skills/list, skills/get and resources/directory/read serve
   * the entries, with each file's sha256 digest and size, and the server declares
   * `io.modelcontextprotocol/skills` (with `directoryRead`). The files are read once, now: later
   * changes on disk are not served. Node only (node:fs, node:crypto, imported on first use).
   * Rejects with a TypeError naming the folder and the problem for a bad skill, a name published
   * already or a URI registered already; then nothing is published.
   */
  load(dir: string): Promise<SkillEntry[]>;
  /**
   * Publishes one skill from files in memory: `SKILL.md` and the files it refers to, by
   * `/`-separated path, text or bytes; checked as a folder's skills are (its frontmatter's name
   * must be `name`). For skills shipped inside a program. Node only (node:crypto, imported on
   * first use). Rejects with a TypeError naming the problem.
   */
  add(name: string, files: Readonly<Record<string, string | Uint8Array>>): Promise<SkillEntry>;
}

/**
 * A new skills extension, with no skills yet:
 * `const published = skills(); server.extend(published); await published.load('./skills');`.
 * One extension serves one server.
 */
export function skills(): SkillsExtension {
  return new SkillsPublisher();
}

/** The skills extension: the catalog, and the skills waiting for the server it is added to. */
class SkillsPublisher implements SkillsExtension {
  readonly id: string = SKILLS_EXTENSION;
  readonly methods: Readonly<Record<string, ExtensionMethod>>;
  readonly #catalog = new SkillCatalog();
  /** Skills published before the extension was added to a server. */
  #pending: PublishedSkill[] = [];
  #host: ExtensionHost | undefined;

  constructor() {
    const serve = (
      method: SkillsMethod,
      fn: (call: ExtensionCall) => unknown,
    ): ExtensionMethod => ({
      ...SKILLS_METHODS[method],
      serve: fn,
    });
    this.methods = {
      [SKILLS_LIST_METHOD]: serve(SKILLS_LIST_METHOD, (call) => this.#list(call)),
      [SKILLS_GET_METHOD]: serve(SKILLS_GET_METHOD, (call) => this.#get(call)),
      [DIRECTORY_READ_METHOD]: serve(DIRECTORY_READ_METHOD, (call) => this.#directory(call)),
    };
  }

  capabilities(): ExtensionCapability | undefined {
    if (this.#catalog.size === 0) return undefined;
    const settings: SkillsCapability = { directoryRead: true };
    return { settings: { ...settings } };
  }

  setup(host: ExtensionHost): void {
    if (this.#host !== undefined) {
      throw new TypeError('a skills extension serves one server: make one per server');
    }
    this.#host = host;
    const pending = this.#pending;
    this.#pending = [];
    this.#publish(host, pending);
  }

  async load(dir: string): Promise<SkillEntry[]> {
    if (typeof dir !== 'string' || dir === '') {
      throw new TypeError('skills().load takes the path of a folder of skill folders');
    }
    const { loadSkills } = await import('./load.js');
    const loaded = await loadSkills(dir);
    this.#accept(loaded);
    return loaded.map((skill) => skill.entry);
  }

  async add(
    name: string,
    files: Readonly<Record<string, string | Uint8Array>>,
  ): Promise<SkillEntry> {
    const { skillFromFiles } = await import('./load.js');
    const skill = await skillFromFiles(name, files);
    this.#accept([skill]);
    return skill.entry;
  }

  /** Publishes `loaded` now, or keeps it for the server the extension is added to. */
  #accept(loaded: readonly PublishedSkill[]): void {
    for (const skill of loaded) {
      const pending = this.#pending.some((other) => other.name === skill.name);
      if (pending || this.#catalog.has(skill.name)) {
        throw new TypeError(`skill "${skill.name}" is already published`);
      }
    }
    if (this.#host === undefined) this.#pending.push(...loaded);
    else this.#publish(this.#host, loaded);
  }

  /**
   * Registers every file of `loaded` as a resource and adds the skills to the catalog, all or
   * nothing: a URI registered already removes what was registered and throws its TypeError.
   */
  #publish(host: ExtensionHost, loaded: readonly PublishedSkill[]): void {
    if (loaded.length === 0) return;
    const registered: RegisteredHandle<ResourceDefinition>[] = [];
    try {
      for (const skill of loaded) registerFiles(host, skill, registered);
    } catch (error) {
      for (const handle of registered) handle.remove();
      throw error;
    }
    for (const skill of loaded) this.#catalog.add(skill);
    // The capabilities now declare the extension.
    host.capabilitiesChanged();
  }

  #published(call: ExtensionCall): SkillCatalog {
    if (this.#catalog.size === 0) {
      throw new JsonRpcError(ErrorCode.MethodNotFound, `method not found: ${call.method}`);
    }
    return this.#catalog;
  }

  #list(call: ExtensionCall): unknown {
    const page = call.page(this.#published(call).entries());
    const result: Record<string, unknown> = { skills: page.items };
    if (page.nextCursor !== undefined) result['nextCursor'] = page.nextCursor;
    return result;
  }

  #get(call: ExtensionCall): unknown {
    const catalog = this.#published(call);
    const uri = uriOf(call);
    const skill = catalog.entry(uri);
    if (skill === undefined) throw invalidParams(`no skill is served at ${uri}`, { uri });
    return { skill };
  }

  #directory(call: ExtensionCall): unknown {
    const catalog = this.#published(call);
    const uri = uriOf(call);
    const children = catalog.directory(uri);
    if (children === undefined) throw invalidParams(`${uri} is not a directory`, { uri });
    const page = call.page(children);
    const result: Record<string, unknown> = { resources: page.items };
    if (page.nextCursor !== undefined) result['nextCursor'] = page.nextCursor;
    return result;
  }
}

function uriOf(call: ExtensionCall): string {
  const uri = call.params['uri'];
  if (typeof uri !== 'string') throw invalidParams('params.uri must be a string');
  return uri;
}

/**
 * Registers each file of `skill` as a static resource (SKILL.md named and described by its
 * frontmatter, the others by their path), each handle into `registered`; stops at the first
 * that throws.
 */
function registerFiles(
  host: ExtensionHost,
  skill: PublishedSkill,
  registered: RegisteredHandle<ResourceDefinition>[],
): void {
  const { frontmatter } = skill.entry;
  for (const file of skill.files) {
    const manifest = file.uri === skill.entry.uri;
    const definition: ResourceDefinition = {
      uri: file.uri,
      name: manifest ? frontmatter.name : file.path,
      mimeType: file.mimeType,
      size: file.size,
    };
    if (manifest) definition.description = frontmatter.description;
    const content = file.text ?? file.bytes;
    registered.push(host.resource(definition, () => content));
  }
}
