// `npm start` serves the demo: it must answer initialize soon after launch, in one process (no
// wrapper left resident), stop on Ctrl-C with exit code 0, and say PORT when its port is taken.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createServer } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';

const root = new URL('../../', import.meta.url).pathname;

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => {
        resolve(typeof address === 'object' && address !== null ? address.port : 0);
      });
    });
  });
}

const children: ReturnType<typeof spawn>[] = [];
afterAll(() => {
  for (const child of children) child.kill('SIGTERM');
});

describe('npm start', () => {
  it('serves the demo and answers initialize', async () => {
    const port = await freePort();
    const child = spawn(process.execPath, ['scripts/start.mjs'], {
      cwd: root,
      env: { ...process.env, PORT: String(port), MCPKIT_SKIP_BUILD: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.push(child);
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const url = `http://127.0.0.1:${port}/mcp`;
    let answer: any;
    for (let attempt = 0; attempt < 900 && answer === undefined; attempt++) {
      try {
        const response = await fetch(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/json' },
          body: JSON.stringify({
            jsonrpc: '2.0',
            id: 1,
            method: 'initialize',
            params: {
              protocolVersion: '2025-11-25',
              capabilities: {},
              clientInfo: { name: 't', version: '1' },
            },
          }),
        });
        answer = await response.json();
      } catch {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    }
    expect(answer).toMatchObject({ id: 1, result: { protocolVersion: '2025-11-25' } });
    await expect.poll(() => output).toContain(`mcpkit demo server: ${url}`);
    // The banner's host line runs the CLI by its absolute path (mcpkit is not on the registry).
    const desktop = /\{"mcpServers".*\}/.exec(output)?.[0];
    expect(JSON.parse(desktop ?? '{}')).toEqual({
      mcpServers: {
        'mcpkit-demo': {
          command: 'node',
          args: [join(root, 'dist/esm/src/cli/main.js'), 'serve', 'demo'],
        },
      },
    });
    expect(output).not.toContain('npx mcpkit serve');
    // The server is this process: it has no child (the database starts on the first sql call).
    const pid = child.pid!;
    expect(readFileSync(`/proc/${String(pid)}/task/${String(pid)}/children`, 'utf8').trim()).toBe(
      '',
    );

    // Another start on the same port says which variable picks another one.
    const second = spawn(process.execPath, ['scripts/start.mjs'], {
      cwd: root,
      env: { ...process.env, PORT: String(port), MCPKIT_SKIP_BUILD: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.push(second);
    let said = '';
    second.stderr.on('data', (chunk: Buffer) => (said += chunk.toString()));
    const secondCode = await new Promise((resolve) => second.once('exit', resolve));
    expect(secondCode).toBe(2);
    expect(said).toContain(`127.0.0.1:${String(port)} is already in use`);
    expect(said).toContain(`PORT=${String(port + 1)} npm start`);

    // Ctrl-C stops it with exit code 0.
    const exited = new Promise((resolve) =>
      child.once('exit', (code) => {
        resolve(code);
      }),
    );
    child.kill('SIGINT');
    expect(await exited).toBe(0);
  }, 90_000);
});
