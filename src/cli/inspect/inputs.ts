// What the page sends, checked: the target of POST /api/connect, a mode, roots, and the answers
// to the server's questions. Each reader throws ApiError(400) naming what is wrong.
import type { Root } from '../../client/index.js';
import type { ProtocolRevision } from '../../protocol/index.js';
import { isProtocolRevision } from '../../protocol/index.js';
import type { Target } from '../target.js';
import { ApiError, asObject } from './api-error.js';
import type { TargetView } from './views.js';
import { maskHeaders } from './wire-log.js';

/** The page's view of a target: header values that are secrets masked. */
export function targetView(target: Target): TargetView {
  return target.kind === 'url'
    ? { kind: 'url', url: target.url, headers: maskHeaders(target.headers) }
    : { kind: 'command', command: target.command, args: [...target.args] };
}

/** A target as a transcript header names it (no header values). */
export function targetForLabel(target: Target): Target {
  return target.kind === 'url' ? { ...target, headers: {} } : target;
}

/**
 * Reads the `target` of POST /api/connect: `{kind: 'url', url, headers?}` or
 * `{kind: 'command', command, args?}`. Throws ApiError(400) naming what is wrong.
 */
export function parseTarget(value: unknown): Target {
  const target = asObject(value);
  if (target?.['kind'] === 'url') {
    const url = target['url'];
    if (typeof url !== 'string' || !/^https?:\/\//i.test(url)) {
      throw new ApiError(400, 'target.url must be an http:// or https:// URL');
    }
    try {
      new URL(url);
    } catch {
      throw new ApiError(400, `target.url "${url}" is not a valid URL`);
    }
    const headers = asObject(target['headers'] ?? {});
    if (headers === undefined || !Object.values(headers).every((v) => typeof v === 'string')) {
      throw new ApiError(400, 'target.headers must be an object of strings');
    }
    for (const name of Object.keys(headers)) {
      if (!/^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/.test(name)) {
        throw new ApiError(400, `target.headers: "${name}" is not a valid header name`);
      }
    }
    return { kind: 'url', url, headers: headers as Record<string, string> };
  }
  if (target?.['kind'] === 'command') {
    const command = target['command'];
    if (typeof command !== 'string' || command.trim() === '') {
      throw new ApiError(400, 'target.command must be a non-empty string');
    }
    const args = target['args'] ?? [];
    if (!Array.isArray(args) || !args.every((arg) => typeof arg === 'string')) {
      throw new ApiError(400, 'target.args must be a list of strings');
    }
    return { kind: 'command', command, args: args };
  }
  throw new ApiError(
    400,
    'target must be {"kind": "url", "url"} or {"kind": "command", "command"}',
  );
}

/** Reads a `mode`: `auto` or a revision. Throws ApiError(400). */
export function parseMode(value: unknown): 'auto' | ProtocolRevision | undefined {
  if (value === undefined || value === 'auto') return value;
  if (isProtocolRevision(value)) return value;
  throw new ApiError(
    400,
    `mode must be "auto" or a protocol revision, not ${JSON.stringify(value)}`,
  );
}

export function parseRoots(value: unknown): Root[] {
  if (!Array.isArray(value)) throw new ApiError(400, 'roots must be a list of {uri, name?}');
  return value.map((item, index) => {
    const root = asObject(item);
    const uri = root?.['uri'];
    if (typeof uri !== 'string' || !uri.startsWith('file://')) {
      throw new ApiError(400, `roots[${String(index)}].uri must be a file:// URI`);
    }
    const name = root?.['name'];
    if (name !== undefined && typeof name !== 'string') {
      throw new ApiError(400, `roots[${String(index)}].name must be a string`);
    }
    return name === undefined ? { uri } : { uri, name };
  });
}

export function elicitResult(result: Record<string, unknown> | undefined): Record<string, unknown> {
  const action = result?.['action'];
  if (action !== 'accept' && action !== 'decline' && action !== 'cancel') {
    throw new ApiError(
      400,
      'an elicitation answer needs result.action: "accept", "decline" or "cancel"',
    );
  }
  if (action !== 'accept') return { action };
  const content = result?.['content'] ?? {};
  if (asObject(content) === undefined) {
    throw new ApiError(400, 'an accepted elicitation needs result.content as an object');
  }
  return { action, content };
}

export function samplingResult(
  result: Record<string, unknown> | undefined,
): Record<string, unknown> {
  if (result === undefined) {
    throw new ApiError(400, 'a sampling answer needs "result" (a CreateMessageResult) or "error"');
  }
  const content = result['content'];
  if (asObject(content) === undefined && !Array.isArray(content)) {
    throw new ApiError(
      400,
      'a sampling answer needs result.content, e.g. {"type": "text", "text": "…"}',
    );
  }
  return { role: 'assistant', model: 'mcpkit-inspector', ...result };
}
