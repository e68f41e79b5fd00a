// `npm start` serves the demo: it must answer initialize soon after launch.
import { spawn } from 'node:child_process';
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
  }, 90_000);
});
