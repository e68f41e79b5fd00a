// mcpkit/skills: the skills extension (io.modelcontextprotocol/skills, SEP-2640, 2026-07-28) on
// the extension seams. A server publishes agent skills with `server.extend(skills())`; a client
// lists and loads them, verified, with `client.extend(skillsClient())`. See docs/skills.md.
export { skills } from './server/extension.js';
export type { SkillsExtension } from './server/extension.js';
export { skillsClient } from './client.js';
export type { LoadedSkill, SkillFile, SkillsApi, SkillsClientOptions } from './client.js';
export {
  DIRECTORY_MIME_TYPE,
  DIRECTORY_READ_METHOD,
  FrontmatterError,
  SKILLS_EXTENSION,
  SKILLS_GET_METHOD,
  SKILLS_LIST_METHOD,
  SKILLS_METHODS,
  SKILLS_REVISIONS,
  parseSkillFile,
} from './protocol.js';
export type {
  DirectoryResource,
  ParsedSkillFile,
  SkillEntry,
  SkillFrontmatter,
  SkillResourceEntry,
  SkillsCapability,
  SkillsMethod,
} from './protocol.js';
