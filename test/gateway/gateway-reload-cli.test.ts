// Hot reload of a real `mcpkit gateway --http` process (#40): its config file rewritten while an
// official SDK v1 client holds a session (and its GET stream), then SIGHUP with an invalid file.
// The session survives both; the client is told of the new tools; the invalid file is refused
// on stderr with its reason and the old config keeps serving. Needs the built CLI.
import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as StreamableHttpV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { McpServer } from '../../src/server/index.js';
import type { Listening } from '../../src/transports/http/server/node.js';
import { listen } from '../../src/transports/http/server/node.js';
import { BIN, spawnCli } from '../cli/run-cli.js';

const BUILT = existsSync(BIN);
if (!BUILT) console.log(`skipping the gateway reload CLI test: ${BIN} is missing (npm run build)`);

async function upstream(tool: string): Promise<Listening> {
  const server = new McpServer({ name: tool, version: '1' });
  server.tool(
    { name: tool, description: `The ${tool} tool.`, inputSchema: { type: 'object' } },
    () => tool,
  );
  return listen(() => server, { port: 0 });
}

describe.skipIf(!BUILT)('mcpkit gateway reloads its config file', () => {
  let one: Listening;
  let two: Listening;
  let child: ChildProcess;
  let stderr = '';
  let url = '';
  let file = '';
  const waitStderr = (pattern: RegExp) =>
    new Promise<RegExpExecArray>((resolve, reject) => {
      const check = () => {
        const match = pattern.exec(stderr);
        if (match === null) return false;
        child.stderr?.off('data', check);
        resolve(match);
        return true;
      };
      if (!check()) child.stderr?.on('data', check);
      child.once('exit', () => {
        reject(new Error(`mcpkit gateway exited: ${stderr}`));
      });
    });

  beforeAll(async () => {
    [one, two] = await Promise.all([upstream('one'), upstream('two')]);
    file = join(mkdtempSync(join(tmpdir(), 'mcpkit-gw-reload-cli-')), 'gateway.json');
    writeFileSync(file, JSON.stringify({ mcpServers: { one: { url: one.url } } }));
    child = spawnCli(['gateway', '--config', file, '--http', '127.0.0.1:0', '--json']);
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    url = (await waitStderr(/serving at (http:\/\/\S+)\n/))[1] ?? '';
  }, 60_000);

  afterAll(async () => {
    if (child.exitCode === null) {
      child.kill('SIGTERM');
      await once(child, 'exit');
    }
    await Promise.all([one.close(), two.close()]);
  });

  it('applies a changed file and refuses an invalid one on SIGHUP, the session kept', async () => {
    const client = new ClientV1({ name: 'reload-cli-test', version: '1' });
    const transport = new StreamableHttpV1(new URL(url));
    let told: () => void = () => undefined;
    const listChanged = new Promise<void>((resolve) => (told = resolve));
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      told();
    });
    await client.connect(transport);
    const session = transport.sessionId;
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(['one']);

    writeFileSync(
      file,
      JSON.stringify({ mcpServers: { one: { url: one.url }, two: { url: two.url } } }),
    );
    const reloaded = JSON.parse(
      (await waitStderr(/^(\{.*"event":"reloaded".*\})$/m))[1] ?? '{}',
    ) as Record<string, unknown>;
    expect(reloaded).toMatchObject({ reason: 'file changed', added: ['two'], kept: ['one'] });
    await listChanged;
    expect((await client.listTools()).tools.map((tool) => tool.name).sort()).toEqual([
      'one',
      'two',
    ]);

    writeFileSync(file, '{"mcpServers": ');
    // Let the watcher's own refusal pass, then ask again with SIGHUP.
    await waitStderr(/"event":"reload-refused","reason":"file changed"/);
    child.kill('SIGHUP');
    const refused = JSON.parse(
      (await waitStderr(/^(\{.*"event":"reload-refused","reason":"SIGHUP".*\})$/m))[1] ?? '{}',
    ) as Record<string, unknown>;
    expect(String(refused['error'])).toMatch(/^the config .*gateway\.json is not valid: /);
    const result = await client.callTool({ name: 'two', arguments: {} });
    expect(result.content).toEqual([{ type: 'text', text: 'two' }]);
    expect(transport.sessionId).toBe(session);
    expect(child.exitCode).toBeNull();
    await client.close();
  });
});
