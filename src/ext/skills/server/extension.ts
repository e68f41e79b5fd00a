// The skills extension's side of the feature table (SEP-2640, 2026-07-28): skills/list,
// skills/get and resources/directory/read, served from the server's SkillCatalog. A server
// that publishes no skills does not declare the extension and answers them -32601.
import { ErrorCode, JsonRpcError } from '../../jsonrpc/errors.js';
import { invalidParams } from '../../protocol/errors.js';
import {
  DIRECTORY_READ_METHOD,
  SKILLS_GET_METHOD,
  SKILLS_LIST_METHOD,
} from '../../protocol/skills.js';
import type { Call } from '../features.js';
import { paginate } from '../registry.js';
import type { SkillCatalog } from './catalog.js';

function catalogOf(call: Call): SkillCatalog {
  const catalog = call.core.skills;
  if (catalog.size === 0) {
    throw new JsonRpcError(ErrorCode.MethodNotFound, `method not found: ${call.method}`);
  }
  return catalog;
}

function uriOf(call: Call): string {
  const uri = call.params['uri'];
  if (typeof uri !== 'string') throw invalidParams('params.uri must be a string');
  return uri;
}

function skillsList(call: Call): Promise<unknown> {
  const page = paginate(catalogOf(call).entries(), call.params['cursor'], call.core.pageSize);
  const result: Record<string, unknown> = { skills: page.items };
  if (page.nextCursor !== undefined) result['nextCursor'] = page.nextCursor;
  return Promise.resolve(result);
}

function skillsGet(call: Call): Promise<unknown> {
  const catalog = catalogOf(call);
  const uri = uriOf(call);
  const skill = catalog.entry(uri);
  if (skill === undefined) throw invalidParams(`no skill is served at ${uri}`, { uri });
  return Promise.resolve({ skill });
}

function directoryRead(call: Call): Promise<unknown> {
  const catalog = catalogOf(call);
  const uri = uriOf(call);
  const children = catalog.directory(uri);
  if (children === undefined) throw invalidParams(`${uri} is not a directory`, { uri });
  const page = paginate(children, call.params['cursor'], call.core.pageSize);
  const result: Record<string, unknown> = { resources: page.items };
  if (page.nextCursor !== undefined) result['nextCursor'] = page.nextCursor;
  return Promise.resolve(result);
}

/** The extension's methods, spread into FEATURES. */
export const SKILL_FEATURES: Readonly<Record<string, (call: Call) => Promise<unknown>>> = {
  [SKILLS_LIST_METHOD]: skillsList,
  [SKILLS_GET_METHOD]: skillsGet,
  [DIRECTORY_READ_METHOD]: directoryRead,
};
