// mcpkit serve ./module.js: a module that exports a factory gets what the reference servers get,
// { server, tasks }: the McpServer options (--state-secret's stateSecret, --redis' change bus) and
// the tasks extension's options (--redis' task store). A module that exports a server it made is
// told that these cannot reach it. The Redis case needs MCPKIT_TEST_REDIS_URL.
import { once } from 'node:events';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { BIN, DIST, cli, spawnCli, waitFor } from './run-cli.js';

const REDIS = process.env['MCPKIT_TEST_REDIS_URL'];
if (REDIS === undefined)
  console.log('serve module options: Redis case skipped, no MCPKIT_TEST_REDIS_URL');
const SECRET = 'a-test-state-secret-of-32-characters-or-more';

const dist = (path: string) => JSON.stringify(pathToFileURL(join(DIST, path)).href);

/** A module whose default export is `factory` code; its tool `given` says what it was given. */
function writeModule(exported: 'factory' | 'server'): string {
  const file = join(mkdtempSync(join(tmpdir(), 'mcpkit-serve-module-')), 'server.mjs');
  const make = [
    `const { McpServer } = await import(${dist('esm/src/server/index.js')});`,
    `const { tasks } = await import(${dist('esm/src/ext/tasks/index.js')});`,
    'function make(options = { server: {}, tasks: {} }) {',
    "  const server = new McpServer({ name: 'mine', version: '1.0.0' }, options.server);",
    '  server.extend(tasks(options.tasks));',
    "  server.tool({ name: 'given' }, () => JSON.stringify({",
    '    stateSecret: options.server.stateSecret !== undefined,',
    '    changeBus: options.server.changeBus !== undefined,',
    '    taskStore: options.tasks.store !== undefined,',
    '  }));',
    '  return server;',
    '}',
    exported === 'factory' ? 'export default make;' : 'export default make();',
    '',
  ];
  writeFileSync(file, make.join('\n'));
  return file;
}

describe('mcpkit serve ./module.js with --state-secret and --redis', () => {
  it("gives a factory --state-secret's stateSecret (stdio)", async () => {
    const module = writeModule('factory');
    const ran = await cli(
      ['call', 'given', '--', 'node', BIN, 'serve', module, '--state-secret', SECRET],
      { timeoutMs: 30_000 },
    );
    expect(ran.code).toBe(0);
    expect(JSON.parse(ran.stdout)).toEqual({
      stateSecret: true,
      changeBus: false,
      taskStore: false,
    });
  }, 40_000);

  it.skipIf(REDIS === undefined)(
    'gives a factory the Redis change bus and task store; a made server is told they cannot reach it',
    async () => {
      for (const exported of ['factory', 'server'] as const) {
        const module = writeModule(exported);
        const args = ['serve', module, '--http', '0', '--redis', REDIS ?? '', '--state-secret'];
        const server = spawnCli([
          ...args,
          SECRET,
          '--redis-prefix',
          `h2-${exported}-${String(process.pid)}`,
        ]);
        let stderr = '';
        server.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
        try {
          const match = await waitFor(
            server,
            /serving at (http:\/\/127\.0\.0\.1:\d+\/mcp)\n/,
            30_000,
          );
          const ran = await cli(['call', match[1] ?? '', 'given'], { timeoutMs: 30_000 });
          expect(ran.code).toBe(0);
          const factory = exported === 'factory';
          expect(JSON.parse(ran.stdout)).toEqual({
            stateSecret: factory,
            changeBus: factory,
            taskStore: factory,
          });
          if (factory) expect(stderr).not.toContain('cannot reach it');
          else
            expect(stderr).toContain(
              'so the state secret and the Redis task store cannot reach it',
            );
        } finally {
          server.kill('SIGTERM');
          await once(server, 'close');
        }
      }
    },
    90_000,
  );
});
