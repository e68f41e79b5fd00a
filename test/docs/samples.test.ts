// Every ```ts block of README.md and docs/*.md type-checks against the built package, as a user's
// project would see it: `mcpkit/...` resolves through package.json `exports` to dist/ (the package
// references itself), with `strict` on, under `moduleResolution` nodenext and bundler.
//
// The rules a block follows:
// - A block may be indented (inside a list item); its lines are read without that indent.
// - A block is a module of its own. The names `server` (McpServer), `client` (Client) and
//   `transport` (Transport) are declared for every block; a block that declares them shadows them.
// - `<!-- sample-prelude: <code> -->` just before the fence (blank lines between allowed) is code the block needs but
//   readers do not (a `declare` of a helper the sample calls); it is compiled before the block.
// - A block whose first line is `// not type-checked: <reason>` is skipped, and reported.
// Skipped when dist/ is missing (`npm test` builds first).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const hasDist = existsSync(join(ROOT, 'dist/src/server/index.d.ts'));
if (!hasDist) console.log('docs samples: skipped, dist/ is missing (npm test builds it)');

/** Where the virtual sample files live: inside the package, so that `mcpkit` refers to itself. */
const SAMPLES = join(ROOT, '.doc-samples');
const OPT_OUT = /^\/\/ not type-checked: (.+)$/;
const PRELUDE = /^<!-- sample-prelude: (.*) -->$/;

/** The names every block may use without declaring them. */
const GLOBALS = `
declare global {
  const server: import('mcpkit/server').McpServer;
  const client: import('mcpkit/client').Client;
  const transport: import('mcpkit/jsonrpc').Transport;
}
export {};
`;

interface Sample {
  /** `docs/server.md:12`: the document and the line of the opening fence. */
  readonly where: string;
  readonly file: string;
  /** Lines of generated code before the block's first line (the prelude). */
  readonly offset: number;
  readonly text: string;
}

interface Skipped {
  readonly where: string;
  readonly reason: string;
}

function documents(): string[] {
  const docs = readdirSync(join(ROOT, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`);
  return ['README.md', ...docs.sort()];
}

/** The ```ts blocks of one markdown document. */
function extract(doc: string, samples: Sample[], skipped: Skipped[]): void {
  const lines = readFileSync(join(ROOT, doc), 'utf8').split('\n');
  for (let i = 0; i < lines.length; i++) {
    // A fence may be indented (a block inside a list item): its lines lose that indent.
    const indent = /^( *)```(ts|typescript)\s*$/.exec(lines[i] ?? '')?.[1];
    if (indent === undefined) continue;
    const start = i;
    const body: string[] = [];
    for (i++; i < lines.length && !/^ *```\s*$/.test(lines[i] ?? ''); i++) {
      const line = lines[i] ?? '';
      body.push(line.startsWith(indent) ? line.slice(indent.length) : line.trimStart());
    }
    const where = `${doc}:${String(start + 1)}`;
    const optOut = OPT_OUT.exec(body[0] ?? '');
    if (optOut !== null) {
      skipped.push({ where, reason: optOut[1] ?? '' });
      continue;
    }
    let before = start - 1;
    while (before > 0 && (lines[before] ?? '').trim() === '') before--;
    const prelude = PRELUDE.exec((lines[before] ?? '').trim())?.[1];
    const head = prelude === undefined ? [] : [prelude];
    const name = `${doc.replace(/[/.]/g, '-')}-${String(start + 1)}.ts`;
    samples.push({
      where,
      file: join(SAMPLES, name),
      offset: head.length,
      // `export {}` keeps a block without imports a module, so its names stay its own.
      text: [...head, ...body, 'export {};', ''].join('\n'),
    });
  }
}

/** Type-checks the samples in one program; returns one line per diagnostic. */
function check(samples: readonly Sample[], options: ts.CompilerOptions): string[] {
  const files = new Map(samples.map((sample) => [sample.file, sample.text]));
  const globals = join(SAMPLES, 'globals.ts');
  files.set(globals, GLOBALS);
  const host = ts.createCompilerHost(options, true);
  const fileExists = host.fileExists.bind(host);
  const readFile = host.readFile.bind(host);
  const getSourceFile = host.getSourceFile.bind(host);
  host.fileExists = (path) => files.has(path) || fileExists(path);
  host.readFile = (path) => files.get(path) ?? readFile(path);
  host.getSourceFile = (path, language, ...rest) => {
    const text = files.get(path);
    return text === undefined
      ? getSourceFile(path, language, ...rest)
      : ts.createSourceFile(path, text, language, true);
  };
  const program = ts.createProgram([globals, ...files.keys()], options, host);
  const bySample = new Map(samples.map((sample) => [sample.file, sample]));
  return ts.getPreEmitDiagnostics(program).map((diagnostic) => {
    const message = ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n  ');
    const sample =
      diagnostic.file === undefined ? undefined : bySample.get(diagnostic.file.fileName);
    if (sample === undefined || diagnostic.file === undefined || diagnostic.start === undefined) {
      return `${diagnostic.file?.fileName ?? '(options)'}: ${message}`;
    }
    const { line } = diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start);
    const [doc, fence] = sample.where.split(':');
    const docLine = Number(fence) + 1 + line - sample.offset;
    return `${doc ?? ''}:${String(docLine)} (block at line ${fence ?? ''}): ${message}`;
  });
}

const BASE: ts.CompilerOptions = {
  strict: true,
  target: ts.ScriptTarget.ES2022,
  lib: ['lib.es2023.d.ts', 'lib.dom.d.ts'],
  types: ['node'],
  skipLibCheck: true,
  noEmit: true,
  esModuleInterop: true,
};

const SETTINGS: Record<string, ts.CompilerOptions> = {
  'module nodenext': {
    ...BASE,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
  },
  'moduleResolution bundler': {
    ...BASE,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
  },
};

describe.skipIf(!hasDist)('the TypeScript samples of README.md and docs/*.md', () => {
  const samples: Sample[] = [];
  const skipped: Skipped[] = [];
  for (const doc of documents()) extract(doc, samples, skipped);

  it('are found, and every opt-out gives a reason', () => {
    expect(samples.length).toBeGreaterThan(10);
    for (const { where, reason } of skipped) {
      console.log(`docs samples: ${where} is not type-checked: ${reason}`);
      expect(reason.trim().length, where).toBeGreaterThan(10);
    }
  });

  for (const [name, options] of Object.entries(SETTINGS)) {
    it(`type-check under ${name}`, () => {
      expect(check(samples, options)).toEqual([]);
    }, 60_000);
  }
});
