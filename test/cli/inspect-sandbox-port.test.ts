// `mcpkit inspect --sandbox-port <n>`: the MCP Apps sandbox (the second origin views run on)
// listens on the port given, and the page is told so; a bad value, the inspector's own port, or
// a port in use is a usage error that names the flag.
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { cli, closedPort, collect, spawnCli } from './run-cli.js';

const stops: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const stop of stops.splice(0).reverse()) await stop();
});

/** The first line of a running child's stdout. */
function firstLine(child: ReturnType<typeof spawnCli>): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
      text += chunk;
      const newline = text.indexOf('\n');
      if (newline >= 0) resolve(text.slice(0, newline));
    });
    child.once('exit', (code) => {
      reject(new Error(`mcpkit inspect exited (${String(code)}) before printing its URL`));
    });
  });
}

describe('mcpkit inspect --sandbox-port', () => {
  it('serves the sandbox on that port, and tells the page', async () => {
    const sandboxPort = await closedPort();
    const child = spawnCli(['inspect', '--no-open', '--sandbox-port', String(sandboxPort)]);
    const exited = collect(child);
    stops.push(() => {
      child.kill('SIGTERM');
      return exited;
    });
    const page = new URL(await firstLine(child));
    const token = page.searchParams.get('token') ?? '';
    const config = (await fetch(new URL('/api/apps/config', page), {
      headers: { 'x-mcpkit-token': token },
    }).then((r) => r.json())) as { sandboxPort?: number };
    expect(config.sandboxPort).toBe(sandboxPort);
    expect(Number(page.port)).not.toBe(sandboxPort);
    // The proxy page, for the inspector's page only, is served from there.
    const host = encodeURIComponent(page.origin);
    const proxy = await fetch(`http://127.0.0.1:${String(sandboxPort)}/proxy?host=${host}`);
    expect(proxy.status).toBe(200);
    expect(proxy.headers.get('content-security-policy')).toContain(
      `frame-ancestors ${page.origin}`,
    );
    child.kill('SIGTERM');
    expect((await exited).code).toBe(0);
  });

  it('refuses a bad port and the inspector’s own', async () => {
    const bad = await cli(['inspect', '--no-open', '--sandbox-port', '70000']);
    expect(bad.code).toBe(3);
    expect(bad.stderr).toContain('invalid --sandbox-port "70000"');
    const port = String(await closedPort());
    const same = await cli(['inspect', '--no-open', '--port', port, '--sandbox-port', port]);
    expect(same.code).toBe(3);
    expect(same.stderr).toContain(`--sandbox-port ${port} is the inspector's own port`);
  });

  it('says when the sandbox port is in use', async () => {
    const taken: Server = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    stops.push(() => new Promise((resolve) => taken.close(resolve)));
    const address = taken.address();
    const port = typeof address === 'object' && address !== null ? address.port : 0;
    const ran = await cli(['inspect', '--no-open', '--sandbox-port', String(port)]);
    expect(ran.code).toBe(3);
    expect(ran.stderr).toContain(`the sandbox port 127.0.0.1:${String(port)} is already in use`);
    expect(ran.stderr).toContain('pick another --sandbox-port');
  });
});
