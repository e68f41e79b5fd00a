// `mcpkit serve openapi`'s configuration: a JSON file (mcpkit/openapi's options) and the flags,
// which add to it. Header values may name environment variables as ${NAME}, so a token stays
// out of the file and the command line.
import { readFile } from 'node:fs/promises';
import type { OpenApiOptions, Selector } from '../../openapi/index.js';
import type { ParsedArgs } from '../args.js';
import { flag, parseHeaders, positiveInteger, text, texts } from '../args.js';
import { UsageError } from '../errors.js';
import { messageOf } from '../../internal/message-of.js';

/** The flags of `mcpkit serve openapi` beyond serving's. */
export const OPENAPI_OPTIONS = {
  config: { type: 'string' },
  'base-url': { type: 'string' },
  'include-tag': { type: 'string', multiple: true },
  'exclude-tag': { type: 'string', multiple: true },
  'include-op': { type: 'string', multiple: true },
  'exclude-op': { type: 'string', multiple: true },
  'include-path': { type: 'string', multiple: true },
  'exclude-path': { type: 'string', multiple: true },
  method: { type: 'string', multiple: true },
  'read-only': { type: 'boolean' },
  budget: { type: 'string' },
  allow: { type: 'string', multiple: true },
  'no-validate': { type: 'boolean' },
  check: { type: 'boolean' },
} as const;

const CONFIG_KEYS = new Set([
  'baseUrl',
  'include',
  'exclude',
  'readOnly',
  'tools',
  'headers',
  'auth',
  'targets',
  'budget',
  'maxTools',
  'timeoutMs',
  'maxResponseBytes',
  'maxTextChars',
  'descriptionChars',
  'parameterChars',
  'inputDepth',
  'outputDepth',
  'outputChars',
]);

/** Reads the config file, if any. Throws UsageError on unreadable JSON or unknown keys. */
async function readConfig(path: string | undefined): Promise<Record<string, unknown>> {
  if (path === undefined) return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(await readFile(path, 'utf8'));
  } catch (error) {
    const reason = messageOf(error);
    throw new UsageError(`cannot read the config ${path}: ${reason}`, 'write it as JSON');
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new UsageError(`the config ${path} is not a JSON object`);
  }
  const unknown = Object.keys(parsed).filter((key) => !CONFIG_KEYS.has(key));
  if (unknown.length > 0) {
    throw new UsageError(
      `the config ${path} has unknown keys: ${unknown.join(', ')}`,
      `known keys: ${[...CONFIG_KEYS].join(', ')} (docs/openapi.md)`,
    );
  }
  return parsed as Record<string, unknown>;
}

/** `${NAME}` in a header value, from the environment. Throws UsageError when unset. */
function expand(value: string, env: Readonly<Record<string, string | undefined>>): string {
  return value.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (_, name: string) => {
    const found = env[name];
    if (found === undefined) {
      throw new UsageError(`a header names \${${name}}, which is not set in the environment`);
    }
    return found;
  });
}

function merged(base: Selector | undefined, extra: Selector): Selector | undefined {
  const entries = Object.entries(extra).filter(([, list]) => (list as string[]).length > 0);
  if (entries.length === 0) return base;
  return { ...base, ...Object.fromEntries(entries) };
}

/** The options of mcpkit/openapi from the config file and the flags. */
export async function openApiOptions(
  parsed: ParsedArgs,
  env: Readonly<Record<string, string | undefined>>,
): Promise<OpenApiOptions> {
  const config = (await readConfig(text(parsed, 'config'))) as OpenApiOptions;
  const headers = { ...config.headers, ...parseHeaders(texts(parsed, 'header')) };
  const budget = text(parsed, 'budget');
  const timeout = text(parsed, 'timeout');
  const baseUrl = text(parsed, 'base-url') ?? config.baseUrl;
  const allow = texts(parsed, 'allow');
  const include = merged(config.include, {
    tags: texts(parsed, 'include-tag'),
    operations: texts(parsed, 'include-op'),
    paths: texts(parsed, 'include-path'),
    methods: texts(parsed, 'method'),
  });
  const exclude = merged(config.exclude, {
    tags: texts(parsed, 'exclude-tag'),
    operations: texts(parsed, 'exclude-op'),
    paths: texts(parsed, 'exclude-path'),
  });
  return {
    ...config,
    env,
    headers: Object.fromEntries(
      Object.entries(headers).map(([name, value]) => [name, expand(value, env)]),
    ),
    ...(include === undefined ? {} : { include }),
    ...(exclude === undefined ? {} : { exclude }),
    ...(flag(parsed, 'read-only') ? { readOnly: true } : {}),
    ...(baseUrl === undefined ? {} : { baseUrl }),
    ...(budget === undefined
      ? {}
      : { budget: budget === 'off' ? false : positiveInteger(budget, '--budget') }),
    ...(timeout === undefined ? {} : { timeoutMs: positiveInteger(timeout, '--timeout') }),
    ...(allow.length === 0 ? {} : { targets: { ...config.targets, allow } }),
  };
}
