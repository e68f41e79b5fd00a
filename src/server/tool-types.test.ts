// What the TypeScript compiler says about a tool handler that returns the wrong thing: the error
// sits on the returned value and names what the return should be, never a missing `outputSchema`
// or "ZodObject is not assignable to JsonSchemaObject" (issue #43 point 3). Each snippet is
// compiled with the TypeScript compiler API under the repository's strict settings; a line
// `// error: <text>` says that the next line has exactly one diagnostic, containing <text>.
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const HERE = dirname(fileURLToPath(import.meta.url));

const HEAD = `import { z } from 'zod';
import { McpServer } from './index.js';
const server = new McpServer({ name: 'types', version: '1.0.0' });
`;

/** Snippet name → its code (after HEAD). */
const SNIPPETS: Record<string, string> = {
  'a number from a tool without outputSchema': `
server.tool({ name: 'answer' }, () =>
  // error: Type 'number' is not assignable to type 'ToolReturn | Promise<ToolReturn>'
  42,
);`,
  'data breaking a zod outputSchema': `
server.tool(
  { name: 'count', outputSchema: z.strictObject({ n: z.number() }) },
  // error: Type 'string' is not assignable to type 'number'
  () => ({ n: 'many' }),
);`,
  'a missing field of a zod outputSchema': `
server.tool(
  { name: 'count', outputSchema: z.strictObject({ n: z.number(), unit: z.string() }) },
  // error: Property 'unit' is missing
  async () => ({ n: 1 }),
);`,
  'a number from a tool with a raw JSON outputSchema': `
server.tool({ name: 'raw', outputSchema: { type: 'object' } }, () =>
  // error: Type 'number' is not assignable to type 'StructuredToolReturn<Record<string, unknown>>
  7,
);`,
  'structuredContent without outputSchema': `
server.tool({ name: 'structured' }, () => ({
  content: [],
  // error: Type '{ a: number; }' is not assignable to type 'undefined'
  structuredContent: { a: 1 },
}));`,
  'correct handlers': `
server.tool({ name: 'text' }, () => 'ok');
server.tool({ name: 'result' }, async () => ({ content: [{ type: 'text', text: 'ok' }] }));
server.tool(
  { name: 'sum', inputSchema: z.strictObject({ a: z.number(), b: z.number() }) },
  ({ a, b }) => String(a + b),
);
server.tool(
  {
    name: 'weather',
    inputSchema: z.strictObject({ city: z.string() }),
    outputSchema: z.strictObject({ celsius: z.number() }),
  },
  ({ city }) => (city === 'Oslo' ? { celsius: 4 } : { structuredContent: { celsius: 21 } }),
);
server.tool({ name: 'failing', outputSchema: z.strictObject({ n: z.number() }) }, () => ({
  content: [{ type: 'text', text: 'no data today' }],
  isError: true as const,
}));
server.tool({ name: 'raw-ok', outputSchema: { type: 'object' } }, () => ({ any: 'thing' }));`,
};

interface Expected {
  readonly line: number;
  readonly text: string;
}

/** The `// error:` lines of a compiled file: the 0-based line after each, and its text. */
function expectations(code: string): Expected[] {
  return code.split('\n').flatMap((line, index) => {
    const match = /^\s*\/\/ error: (.+)$/.exec(line);
    return match === null ? [] : [{ line: index + 1, text: match[1] ?? '' }];
  });
}

function compile(files: ReadonlyMap<string, string>): ts.Diagnostic[] {
  const options: ts.CompilerOptions = {
    strict: true,
    exactOptionalPropertyTypes: true,
    noUncheckedIndexedAccess: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    lib: ['lib.es2023.d.ts', 'lib.dom.d.ts'],
    types: ['node'],
    skipLibCheck: true,
    noEmit: true,
  };
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
  const program = ts.createProgram([...files.keys()], options, host);
  return [...ts.getPreEmitDiagnostics(program)];
}

describe('type errors of a tool handler name its return', () => {
  const files = new Map(
    Object.entries(SNIPPETS).map(([name, code], index) => [
      join(HERE, `.tool-types-${String(index)}.ts`),
      { name, code: `${HEAD}${code}\nexport {};\n` },
    ]),
  );
  const diagnostics = compile(new Map([...files].map(([path, { code }]) => [path, code])));

  for (const [path, { name, code }] of files) {
    it(name, () => {
      const found = diagnostics
        .filter((diagnostic) => diagnostic.file?.fileName === path)
        .map((diagnostic) => ({
          line: diagnostic.file?.getLineAndCharacterOfPosition(diagnostic.start ?? 0).line,
          text: ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'),
        }));
      const expected = expectations(code);
      expect(found.map(({ line }) => line)).toEqual(expected.map(({ line }) => line));
      for (const [index, { text }] of expected.entries()) {
        const message = found[index]?.text ?? '';
        expect(message).toContain(text);
        expect(message).not.toMatch(/outputSchema|JsonSchemaObject|ZodObject|No overload/);
      }
    });
  }
});
