// End to end: mcpkit's stdio client transport spawns a child running mcpkit's stdio server
// transport on the real process.stdin/process.stdout. Node 20 cannot run .ts in a child and no
// TypeScript loader is installed (no tsx), so beforeAll transpiles the few sources involved
// (src/internal, src/jsonrpc, src/transports/stdio) to a temporary directory with the TypeScript compiler API:
// no type check (tsc does that), no build of the rest of the tree.
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Connection } from '../../src/jsonrpc/connection.js';
import { createStdioClientTransport } from '../../src/transports/stdio/index.js';

const SRC = fileURLToPath(new URL('../../src/', import.meta.url));
const SERVER = fileURLToPath(new URL('../fixtures/stdio-mcpkit-server.mjs', import.meta.url));
let outDir = '';

async function transpileDir(dir: string): Promise<void> {
  for (const name of await readdir(join(SRC, dir))) {
    if (!name.endsWith('.ts') || name.endsWith('.test.ts')) continue;
    const source = await readFile(join(SRC, dir, name), 'utf8');
    const { outputText } = ts.transpileModule(source, {
      compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
      fileName: name,
    });
    const target = join(outDir, relative(SRC, join(SRC, dir, name))).replace(/\.ts$/, '.js');
    await mkdir(dirname(target), { recursive: true });
    await writeFile(target, outputText);
  }
}

beforeAll(async () => {
  outDir = await mkdtemp(join(tmpdir(), 'mcpkit-stdio-e2e-'));
  await writeFile(join(outDir, 'package.json'), '{"type":"module"}\n');
  await transpileDir('internal');
  await transpileDir('jsonrpc');
  await transpileDir('transports/stdio');
});

afterAll(async () => {
  if (outDir !== '') await rm(outDir, { recursive: true, force: true });
});

describe('stdio client and server transports, end to end', () => {
  it('exchange messages and the server exits by itself when its stdin ends', async () => {
    const transport = createStdioClientTransport({
      command: process.execPath,
      args: [SERVER, outDir],
      killTimeoutMs: 10_000, // a server that failed to exit would turn this test into a timeout
    });
    const closes: (Error | undefined)[] = [];
    const client = new Connection(transport, { onClose: (error) => closes.push(error) });
    await client.start();
    await expect(client.request('echo', { text: 'héllo 😀' })).resolves.toEqual({
      echoed: { text: 'héllo 😀' },
    });
    const { data } = (await client.request('big', { pairs: 2_000_000 })) as { data: string };
    expect(data.length).toBe(4_000_000);
    await client.close();
    await expect(transport.exit).resolves.toEqual({ code: 0, signal: null });
    expect(closes).toEqual([undefined]);
    expect(transport.stderrText).toBe('server ready\nserver closed\n');
  });

  it('lets the server process exit once the server closes its transport, stdin still open', async () => {
    const transport = createStdioClientTransport({
      command: process.execPath,
      args: [SERVER, outDir],
      killTimeoutMs: 10_000,
    });
    const closes: (Error | undefined)[] = [];
    const client = new Connection(transport, { onClose: (error) => closes.push(error) });
    await client.start();
    await expect(client.request('shutdown')).resolves.toEqual({});
    await expect(transport.exit).resolves.toEqual({ code: 0, signal: null });
    await client.close();
    expect(closes).toHaveLength(1);
    expect(closes[0]).toMatchObject({ exitCode: 0, message: /exited with code 0/ });
    expect(transport.stderrText).toBe('server ready\nserver closed\n');
  });
});
