// docs/typescript.md's tsconfig, as a newcomer copies it: a scratch project outside the repository
// gets the page's first ```json block (read from the page, never copied here) as its
// tsconfig.json, `"type": "module"`, @types/node and a server importing mcpkit, and must compile
// with the TypeScript a user installs today (`typescript-7`, what `npm i -D typescript` gives) and
// the major before it (the repository's own `typescript`); the compiled server then answers a call
// over stdio. mcpkit resolves through its package.json `exports` to dist/ (skipped without it).
import { execFile } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '../../src/client/index.js';
import { createStdioClientTransport } from '../../src/transports/stdio/index.js';
import { pageTsconfig, typescriptProject } from '../helpers/typescript-project.js';

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const hasDist = existsSync(join(ROOT, 'dist/src/server/index.d.ts'));
if (!hasDist) console.log('docs/typescript.md tsconfig: skipped, dist/ is missing');

/** The compilers: package folder in node_modules → its major version. */
const COMPILERS = ['typescript-7', 'typescript'].map((name) => {
  const dir = join(ROOT, 'node_modules', name);
  const { version } = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as {
    version: string;
  };
  return { name, version, major: Number(version.split('.')[0]), tsc: join(dir, 'bin/tsc') };
});

const SERVER = `import { McpServer } from 'mcpkit/server';
import { createStdioServerTransport } from 'mcpkit/transports/stdio';
import { z } from 'zod';

const server = new McpServer({ name: 'first', version: '1.0.0' });
server.tool(
  { name: 'greet', inputSchema: z.strictObject({ who: z.string() }) },
  ({ who }) => \`Hello, \${who}, from \${process.env['GREETER'] ?? 'nobody'}.\`,
);
await server.connect(createStdioServerTransport());
`;

describe.skipIf(!hasDist)("docs/typescript.md's tsconfig in a new project", () => {
  const projects: string[] = [];

  /** A scratch project with the page's tsconfig and the sample server. */
  function project(): string {
    const dir = typescriptProject({
      prefix: 'mcpkit-tsconfig-',
      files: { 'src/server.ts': SERVER },
    });
    projects.push(dir);
    return dir;
  }

  beforeAll(() => {
    expect(pageTsconfig()).toContain('"compilerOptions"');
  });
  afterAll(() => {
    for (const dir of projects) rmSync(dir, { recursive: true, force: true });
  });

  it('is tried with the current TypeScript major and the one before', () => {
    const [current, previous] = COMPILERS;
    expect(current?.major).toBeGreaterThanOrEqual(7);
    expect(previous?.major).toBe((current?.major ?? 0) - 1);
  });

  for (const { name, version, tsc } of COMPILERS) {
    it(`compiles with ${name} (${version}), and the output serves`, async () => {
      const dir = project();
      const compiled = await run(process.execPath, [tsc, '-p', dir]).catch(
        (error: unknown) => error as { stdout?: string; stderr?: string },
      );
      expect(`${compiled.stdout ?? ''}${compiled.stderr ?? ''}`).toBe('');
      const client = new Client({ name: 'test', version: '1.0.0' });
      await client.connect(
        createStdioClientTransport({
          command: process.execPath,
          args: [join(dir, 'dist/server.js')],
          env: { GREETER: name },
        }),
      );
      try {
        const result = await client.callTool('greet', { who: 'Ada' });
        expect(result.content).toEqual([{ type: 'text', text: `Hello, Ada, from ${name}.` }]);
      } finally {
        await client.close();
      }
    }, 120_000);
  }
});
