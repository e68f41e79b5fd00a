// Importing a user's server module (mcpkit serve <path>, and the child mcpkit dev runs):
// JavaScript as is; TypeScript through tsx, an optional peer, which also takes what tsc wants
// of a TypeScript project (imports of `./tools.js` meaning `./tools.ts`, enums, parameter
// properties, tsconfig `paths`). Node 20 cannot run TypeScript itself; where tsx is absent and
// Node strips types (22.18 and later), the module is imported by Node's own type stripping.
import process from 'node:process';
import { pathToFileURL } from 'node:url';
import { isObject } from '../internal/json.js';
import { CliError } from './errors.js';

/** Whether `file` is a TypeScript module (by its extension). */
export function isTypeScript(file: string): boolean {
  return /\.[cm]?tsx?$/.test(file);
}

/** What runs a TypeScript module here: `tsx`, `node` (type stripping), or undefined (nothing). */
export async function typeScriptLoader(): Promise<'tsx' | 'node' | undefined> {
  if ((await loadTsx()) !== undefined) return 'tsx';
  return nodeStripsTypes() ? 'node' : undefined;
}

/** The install hint for TypeScript modules, where nothing runs them. */
export const TSX_HINT =
  'install tsx beside mcpkit (npm install -D tsx), or compile the module (tsc) and give the .js file; Node 20 cannot run TypeScript itself';

/**
 * Imports `file` (an absolute path), TypeScript through tsx (each call a fresh module graph) or
 * Node's own type stripping. Throws CliError when a TypeScript module has nothing to run it.
 */
export async function importModule(file: string): Promise<Record<string, unknown>> {
  const url = pathToFileURL(file).href;
  if (!isTypeScript(file)) return (await import(url)) as Record<string, unknown>;
  const tsx = await loadTsx();
  if (tsx !== undefined) {
    const namespace = (await tsx.tsImport(url, { parentURL: import.meta.url })) as Record<
      string,
      unknown
    >;
    // Outside a "type": "module" package tsx compiles the module to CommonJS: its exports are
    // then the namespace's default, marked __esModule.
    const inner = namespace['default'];
    return isObject(inner) && inner['__esModule'] === true ? inner : namespace;
  }
  if (nodeStripsTypes()) return (await import(url)) as Record<string, unknown>;
  throw new CliError(
    `${file} is TypeScript, and tsx, which mcpkit runs it with, is not installed`,
    {
      hint: TSX_HINT,
      exitCode: 3,
    },
  );
}

interface Tsx {
  tsImport(specifier: string, options: { parentURL: string }): Promise<unknown>;
}

async function loadTsx(): Promise<Tsx | undefined> {
  try {
    const tsx: Tsx = await import('tsx/esm/api');
    return tsx;
  } catch (error) {
    if ((error as { code?: unknown }).code === 'ERR_MODULE_NOT_FOUND') return undefined;
    throw error;
  }
}

/** Whether this Node imports .ts files itself (`process.features.typescript`, Node 22.10+). */
function nodeStripsTypes(): boolean {
  const features = process.features as { typescript?: unknown };
  return features.typescript === 'strip' || features.typescript === 'transform';
}
