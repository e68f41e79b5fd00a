// A private nginx as a plain round-robin load balancer (no stickiness) in front of several
// `mcpkit serve` child processes, for the scale-out tests: its own config, pid, logs and temp
// files in a temp dir, `daemon off`, a free port on 127.0.0.1. Every response carries
// `X-Upstream: <host:port>` (the process that answered), and the access log names it too.
import type { ChildProcess } from 'node:child_process';
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
/** The built CLI (`npm run build`); MCPKIT_DIST points elsewhere. */
export const CLI = join(process.env['MCPKIT_DIST'] ?? join(ROOT, 'dist'), 'esm/src/cli/main.js');

/** The nginx binary, or undefined when it is not installed. */
export function findNginx(): string | undefined {
  for (const candidate of ['nginx', '/usr/sbin/nginx', '/usr/local/sbin/nginx']) {
    const ran = spawnSync(candidate, ['-v'], { stdio: 'ignore' });
    if (ran.error === undefined && ran.status === 0) return candidate;
  }
  return undefined;
}

/** A free TCP port on 127.0.0.1 (free when asked: nginx binds it right after). */
export async function freePort(): Promise<number> {
  const probe = createServer();
  probe.listen(0, '127.0.0.1');
  await once(probe, 'listening');
  const address = probe.address();
  probe.close();
  await once(probe, 'close');
  return typeof address === 'object' && address !== null ? address.port : 0;
}

/** The nginx config: three (or more) upstreams, round-robin, SSE-friendly proxying. */
export function nginxConfig(dir: string, port: number, upstreams: readonly string[]): string {
  const servers = upstreams.map((u) => `    server ${u} max_fails=1 fail_timeout=2s;`).join('\n');
  return `daemon off;
${process.getuid?.() === 0 ? 'user root;\n' : ''}worker_processes 1;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 1024; }
http {
  client_body_temp_path ${dir}/body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  log_format upstream '$upstream_addr $request_method $status "$http_mcp_session_id"';
  access_log ${dir}/access.log upstream;
  upstream mcp {
${servers}
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

/** A running nginx. */
export interface Balancer {
  /** http://127.0.0.1:<port>/mcp */
  readonly url: string;
  readonly port: number;
  /** The access log's lines so far: `<upstream> <method> <status> "<session id>"`. */
  accessLog(): string[];
  close(): Promise<void>;
}

/** Starts nginx in front of `upstreams` (`host:port` each). */
export async function startBalancer(
  nginx: string,
  upstreams: readonly string[],
): Promise<Balancer> {
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
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
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

function readIfThere(path: string): string {
  return existsSync(path) ? readFileSync(path, 'utf8') : '';
}

async function untilListening(port: number, child: ChildProcess, why: () => string): Promise<void> {
  for (let i = 0; i < 100; i++) {
    if (child.exitCode !== null) throw new Error(`nginx exited: ${why()}`);
    const up = await new Promise<boolean>((resolve) => {
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

/** A `mcpkit serve` child process. */
export interface Served {
  readonly url: string;
  /** host:port */
  readonly address: string;
  readonly child: ChildProcess;
  /** Its stderr so far. */
  stderr(): string;
  close(): Promise<void>;
}

/** Starts `mcpkit serve <args>` (with --http 127.0.0.1:0) and waits for its URL. */
export async function startServe(
  args: readonly string[],
  env: Record<string, string> = {},
): Promise<Served> {
  const child = spawn(process.execPath, [CLI, 'serve', ...args, '--http', '127.0.0.1:0'], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      reject(new Error(`mcpkit serve did not start: ${stderr}`));
    }, 30_000);
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      const match = /serving at (http:\/\/\S+)\n/.exec(stderr);
      if (match?.[1] !== undefined) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`mcpkit serve exited (${String(code)}): ${stderr}`));
    });
  });
  return {
    url,
    address: new URL(url).host,
    child,
    stderr: () => stderr,
    close: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      // A process that does not stop within 5 s is killed, so that no test leaves one behind.
      const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(timer);
    },
  };
}
