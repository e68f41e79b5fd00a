// `npm start`: builds when needed, then serves the demo (pingme, everything, sql and utilix on one
// endpoint) on http://127.0.0.1:3000/mcp (PORT and HOST change it) and prints how to talk to it.
//
// The server runs in this process (the CLI's `serve demo`, imported), not in a child: no second
// Node process stays resident to print a banner, and Ctrl-C, SIGTERM and the exit code are the
// CLI's own.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const root = new URL('..', import.meta.url).pathname;
const bin = join(root, 'dist/esm/src/cli/main.js');
const host = process.env.HOST || '127.0.0.1';
const port = process.env.PORT || '3000';
const urlHost = host.includes(':') ? `[${host}]` : host;
const url = `http://${urlHost}:${port}/mcp`;

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

/** Whether `host:port` can be listened on; a port in use is said in npm start's own terms. */
async function checkPort() {
  const probe = createServer();
  const error = await new Promise((resolve) => {
    probe.once('error', resolve);
    probe.listen(Number(port), host, () => probe.close(() => resolve(undefined)));
  });
  if (error?.code !== 'EADDRINUSE') return; // other errors: the CLI says them
  process.stderr.write(`mcpkit: ${urlHost}:${port} is already in use\n`);
  process.stderr.write(
    `hint: pick another port: PORT=${String(Number(port) + 1)} npm start (HOST=<address> to bind another address)\n`,
  );
  process.exit(2);
}

/** Waits until the server accepts connections, then prints the banner (once, if it does). */
async function announce(stopped) {
  for (let attempt = 0; attempt < 600; attempt++) {
    const up = await new Promise((resolve) => {
      const socket = connect(Number(port), host, () => {
        socket.end();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (stopped.done) return;
    if (up) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const init =
    '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"curl","version":"1"}}}';
  const desktop = JSON.stringify({
    mcpServers: { 'mcpkit-demo': { command: 'node', args: [bin, 'serve', 'demo'] } },
  });
  console.log(`
mcpkit demo server: ${url}
  (pingme, everything, sql and utilix on one endpoint; Ctrl-C stops it;
   PORT=3001 npm start and HOST=0.0.0.0 npm start serve elsewhere)

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

Claude Desktop (stdio), in claude_desktop_config.json (mcpkit is not on the npm registry yet):
  ${desktop}
`);
}

await checkPort();
const { main } = await import(pathToFileURL(bin).href);
const color =
  process.stdout.isTTY === true && process.stderr.isTTY === true && !process.env.NO_COLOR;
const io = {
  stdout: process.stdout,
  stderr: process.stderr,
  stdin: process.stdin,
  isTTY: process.stdin.isTTY === true && process.stderr.isTTY === true,
  env: process.env,
  color,
};
const stopped = { done: false };
void announce(stopped);
const code = await main(['serve', 'demo', '--http', `${urlHost}:${port}`], io);
stopped.done = true;
// As the CLI's own entry point does: exit once the output is flushed, whatever handle is left.
process.stdout.write('', () => process.stderr.write('', () => process.exit(code)));
