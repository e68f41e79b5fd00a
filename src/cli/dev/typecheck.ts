// The type check beside `mcpkit dev`: `tsc --noEmit --watch` of the project's own TypeScript
// (resolved from the module's folder), its errors printed as they come; serving never waits
// for it, and a type error never stops it (tsx runs what type-checks or not).
import type { ChildProcess } from 'node:child_process';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import process from 'node:process';

/** What the type check reports. */
export type TypeCheckLine = (line: string) => void;

/** The running type check, or why there is none. */
export type TypeCheck =
  | { readonly running: true; readonly project: string; readonly close: () => void }
  | { readonly running: false; readonly reason: string };

/** Lines of tsc's watch mode that say nothing a person needs. */
const QUIET = /Starting compilation in watch mode|File change detected|^\s*$/;

/**
 * Starts `tsc --noEmit --watch` for `file`: with the nearest tsconfig.json up to the project's
 * root (the folder with package.json), else on the file alone with strict NodeNext settings.
 */
export function startTypeCheck(file: string, onLine: TypeCheckLine): TypeCheck {
  let tsc: string;
  try {
    tsc = createRequire(file).resolve('typescript/bin/tsc');
  } catch {
    return {
      running: false,
      reason: `typescript is not installed for ${dirname(file)} (npm install -D typescript)`,
    };
  }
  const tsconfig = nearestTsconfig(dirname(file));
  const project =
    tsconfig === undefined
      ? [file, '--strict', '--target', 'es2022', '--module', 'nodenext', '--skipLibCheck']
      : ['-p', tsconfig];
  const child: ChildProcess = spawn(
    process.execPath,
    [tsc, '--noEmit', '--watch', '--preserveWatchOutput', '--pretty', 'false', ...project],
    { cwd: dirname(tsconfig ?? file), stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let partial = '';
  const read = (chunk: Buffer) => {
    const lines = (partial + chunk.toString('utf8')).split('\n');
    partial = lines.pop() ?? '';
    for (const line of lines) if (!QUIET.test(line)) onLine(line.replace(/\r$/, ''));
  };
  child.stdout?.on('data', read);
  child.stderr?.on('data', read);
  child.on('error', (error) => {
    onLine(`could not run ${tsc}: ${error.message}`);
  });
  return {
    running: true,
    project: tsconfig ?? file,
    close: () => {
      child.kill('SIGTERM');
    },
  };
}

/** The nearest tsconfig.json from `folder` up, not above the folder holding package.json. */
function nearestTsconfig(folder: string): string | undefined {
  for (let at = folder; ; at = dirname(at)) {
    const candidate = join(at, 'tsconfig.json');
    if (existsSync(candidate)) return candidate;
    if (existsSync(join(at, 'package.json')) || dirname(at) === at) return undefined;
  }
}
