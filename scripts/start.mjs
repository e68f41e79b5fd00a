// `npm start`: builds when needed, then serves the demo (pingme, everything, sql and utilix on one
// endpoint) on http://127.0.0.1:3000/mcp and prints how to talk to it.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, statSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const bin = join(root, 'dist/esm/src/cli/main.js');
const host = process.env.HOST ?? '127.0.0.1';
const port = process.env.PORT ?? '3000';
const url = `http://${host}:${port}/mcp`;

/** The newest modification time under `dir` (source files only). */
function newest(dir) {
  let latest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) latest = Math.max(latest, newest(path));
    else if (entry.name.endsWith('.ts')) latest = Math.max(latest, statSync(path).mtimeMs);
  }
  return latest;
}

// MCPKIT_SKIP_BUILD=1 trusts an existing build (the test suite builds first).
const stale =
  !existsSync(bin) ||
  (process.env.MCPKIT_SKIP_BUILD !== '1' &&
    statSync(bin).mtimeMs < Math.max(newest(join(root, 'src')), newest(join(root, 'servers'))));
if (stale) {
  console.log('mcpkit: building…');
  const build = spawnSync('npm', ['run', 'build', '--silent'], { cwd: root, stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

const child = spawn(process.execPath, [bin, 'serve', 'demo', '--http', `${host}:${port}`], {
  cwd: root,
  stdio: ['ignore', 'inherit', 'inherit'],
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => process.exit(code ?? (signal === null ? 0 : 1)));

/** Waits until the server answers a 2026-07-28 server/discover, then prints the banner. */
async function announce() {
  for (let attempt = 0; attempt < 200; attempt++) {
    try {
      const response = await fetch(url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-protocol-version': '2026-07-28',
          'mcp-method': 'server/discover',
        },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 0,
          method: 'server/discover',
          params: {
            _meta: {
              'io.modelcontextprotocol/protocolVersion': '2026-07-28',
              'io.modelcontextprotocol/clientCapabilities': {},
            },
          },
        }),
      });
      if (response.ok) break;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const init =
    '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"curl","version":"1"}}}';
  console.log(`
mcpkit demo server: ${url}
  (pingme, everything, sql and utilix on one endpoint; Ctrl-C stops it)

Try it with the CLI:
  npx mcpkit list ${url}
  npx mcpkit call ${url} PingME
  npx mcpkit call ${url} validate_email --arg email=jane.doe@example.com --arg check_domain=true

Or with curl (a legacy session; the session id comes back in a header):
  curl -si ${url} -H 'content-type: application/json' -H 'accept: application/json, text/event-stream' \\
    -d '${init}'
  curl -s ${url} -H 'content-type: application/json' -H 'mcp-session-id: <id>' \\
    -d '{"jsonrpc":"2.0","method":"notifications/initialized"}'
  curl -s ${url} -H 'content-type: application/json' -H 'accept: application/json' -H 'mcp-session-id: <id>' \\
    -d '{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"PingME","arguments":{}}}'

Claude Desktop (stdio), in claude_desktop_config.json:
  { "mcpServers": { "mcpkit-demo": { "command": "npx", "args": ["mcpkit", "serve", "demo"] } } }
`);
}
void announce();
