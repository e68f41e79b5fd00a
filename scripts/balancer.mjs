// A private nginx as a plain round-robin load balancer (no stickiness) in front of several mcpkit
// processes: its own config, pid, logs and temp files in a temp dir, `daemon off`, a free port on
// 127.0.0.1, unbuffered for SSE. Every response carries `X-Upstream: <host:port>` (the process
// that answered), and the access log names it too. Used by the scale-out tests
// (test/helpers/balancer.ts), `npm run conformance -- --balanced` and `npm run bench`.
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import process from 'node:process';

/** The nginx binary, or undefined when it is not installed. */
export function findNginx() {
  for (const candidate of ['nginx', '/usr/sbin/nginx', '/usr/local/sbin/nginx']) {
    const ran = spawnSync(candidate, ['-v'], { stdio: 'ignore' });
    if (ran.error === undefined && ran.status === 0) return candidate;
  }
  return undefined;
}

/** A free TCP port on 127.0.0.1 (free when asked: nginx binds it right after). */
export async function freePort() {
  const probe = createServer();
  probe.listen(0, '127.0.0.1');
  await once(probe, 'listening');
  const address = probe.address();
  probe.close();
  await once(probe, 'close');
  return typeof address === 'object' && address !== null ? address.port : 0;
}

/** The nginx config: the upstreams round-robin, SSE-friendly proxying, files under `dir`. */
export function nginxConfig(dir, port, upstreams) {
  const servers = upstreams.map((u) => `    server ${u} max_fails=1 fail_timeout=2s;`).join('\n');
  const temp = ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']
    .map((kind) => `  ${kind}_temp_path ${dir}/${kind};`)
    .join('\n');
  return `daemon off;
${process.getuid?.() === 0 ? 'user root;\n' : ''}worker_processes 1;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 1024; }
http {
${temp}
  log_format upstream '$upstream_addr $request_method $status "$http_mcp_session_id"';
  access_log ${dir}/access.log upstream;
  upstream mcp {
${servers}
    keepalive 64;
  }
  server {
    listen 127.0.0.1:${String(port)};
    location / {
      proxy_pass http://mcp;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host $http_host;
      proxy_buffering off;
      proxy_request_buffering off;
      proxy_cache off;
      proxy_read_timeout 1h;
      proxy_send_timeout 1h;
      proxy_next_upstream error timeout;
      add_header X-Upstream $upstream_addr always;
    }
  }
}
`;
}

/**
 * Starts nginx (`nginx`, default: the one installed) in front of `upstreams` (`host:port` each)
 * and resolves once it listens. Throws when nginx is missing or exits.
 */
export async function startBalancer(upstreams, nginx = findNginx()) {
  if (nginx === undefined) throw new Error('nginx is not installed (apt-get install nginx)');
  const dir = mkdtempSync(join(tmpdir(), 'mcpkit-nginx-'));
  const port = await freePort();
  writeFileSync(join(dir, 'nginx.conf'), nginxConfig(dir, port, upstreams));
  const child = spawn(
    nginx,
    ['-p', dir, '-c', join(dir, 'nginx.conf'), '-e', join(dir, 'error.log')],
    {
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr += chunk.toString()));
  await untilListening(port, child, () => `${stderr}${readIfThere(join(dir, 'error.log'))}`);
  return {
    url: `http://127.0.0.1:${String(port)}/mcp`,
    port,
    accessLog: () =>
      readIfThere(join(dir, 'access.log'))
        .split('\n')
        .filter((line) => line !== ''),
    close: async () => {
      if (child.exitCode === null) {
        child.kill('SIGTERM');
        await once(child, 'exit');
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

function readIfThere(path) {
  return existsSync(path) ? readFileSync(path, 'utf8') : '';
}

async function untilListening(port, child, why) {
  for (let i = 0; i < 100; i++) {
    if (child.exitCode !== null) throw new Error(`nginx exited: ${why()}`);
    const up = await new Promise((resolve) => {
      const socket = connect(port, '127.0.0.1');
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => {
        resolve(false);
      });
    });
    if (up) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`nginx did not listen on ${String(port)}: ${why()}`);
}
