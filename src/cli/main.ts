#!/usr/bin/env node
// The `mcpkit` command line. For now it prints its version and usage; the commands arrive with
// the client and CLI issue (#5).
import { readFileSync } from 'node:fs';

const USAGE = `mcpkit: Model Context Protocol toolkit

Usage:
  mcpkit --version     print the version
  mcpkit --help        print this help

Commands (serve, info, list, call, read, prompt, budget, lint) are coming.`;

/** Reads this package's version from its package.json. */
function version(): string {
  const text = readFileSync(new URL('../../../package.json', import.meta.url), 'utf8');
  const parsed = JSON.parse(text) as { version?: unknown };
  return typeof parsed.version === 'string' ? parsed.version : 'unknown';
}

/** Runs the CLI and returns its exit code (0 success, 3 bad usage). */
export function main(args: readonly string[]): number {
  const [first] = args;
  if (first === '--version' || first === '-v') {
    console.log(version());
    return 0;
  }
  if (first === undefined || first === '--help' || first === '-h' || first === 'help') {
    console.log(USAGE);
    return 0;
  }
  console.error(`mcpkit: unknown command "${first}"\nhint: run "mcpkit --help"`);
  return 3;
}

process.exitCode = main(process.argv.slice(2));
