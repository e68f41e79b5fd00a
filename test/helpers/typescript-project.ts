// A newcomer's TypeScript project, as docs/typescript.md has one start: a scratch folder outside
// the repository with the page's tsconfig (read from the page, never copied into a test),
// `"type": "module"`, and node_modules linking mcpkit to this checkout (resolved through its
// package.json `exports`, so to dist/), zod and @types/node.
import { mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** The first ```json block of docs/typescript.md: the tsconfig a newcomer copies. */
export function pageTsconfig(): string {
  const page = readFileSync(join(ROOT, 'docs/typescript.md'), 'utf8');
  const block = /^```json\n([\s\S]*?)^```$/m.exec(page);
  if (block?.[1] === undefined) throw new Error('docs/typescript.md has no ```json block');
  return block[1];
}

/** Options of {@link typescriptProject}. */
export interface TypescriptProjectOptions {
  /** The temp folder's name prefix. */
  prefix: string;
  /** Files to write, by path relative to the project (folders made as needed). */
  files: Record<string, string>;
  /** More packages of this checkout's node_modules to link in (e.g. typescript, for tsc). */
  link?: readonly string[];
}

/**
 * Makes the project in a new temp folder and returns its path; the caller removes it. The
 * project's tsconfig.json is {@link pageTsconfig}.
 */
export function typescriptProject({ prefix, files, link = [] }: TypescriptProjectOptions): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  mkdirSync(join(dir, 'node_modules/@types'), { recursive: true });
  writeFileSync(join(dir, 'package.json'), '{ "name": "first", "type": "module" }\n');
  writeFileSync(join(dir, 'tsconfig.json'), pageTsconfig());
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  symlinkSync(ROOT, join(dir, 'node_modules/mcpkit'), 'dir');
  for (const name of ['zod', '@types/node', ...link]) {
    symlinkSync(join(ROOT, 'node_modules', name), join(dir, 'node_modules', name), 'dir');
  }
  return dir;
}
