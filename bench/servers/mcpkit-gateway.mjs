// mcpkit gateway (issue #24) in front of mcpkit-http.mjs: this process runs `mcpkit gateway
// --http` (the CLI's own main, so that its CPU time is this process's), with one HTTP upstream,
// the same server as the "mcpkit 2026-07-28" row, started here as a child. A tools/call makes two
// hops: client -> gateway (2026-07-28) -> upstream (2026-07-28).
// BENCH_GATEWAY_UPSTREAM=stdio: the upstream is mcpkit-stdio.mjs over stdio instead, spawned by
// the gateway (common.mjs stdioUpstream(), the upstream of the peer-gateway rows, issue #40).
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import process from 'node:process';
import { startServer } from '../lib.mjs';
import { PORT, ready, stdioUpstream } from './common.mjs';

const overStdio = process.env['BENCH_GATEWAY_UPSTREAM'] === 'stdio';
const config = join(mkdtempSync(join(tmpdir(), 'mcpkit-bench-gateway-')), 'servers.json');
let entry;
if (overStdio) {
  const { command, args } = stdioUpstream();
  const env = { NODE_ENV: 'production', BENCH_TOOLS: process.env['BENCH_TOOLS'] ?? '0' };
  entry = { command, args, env };
} else {
  const upstream = await startServer('mcpkit-http.mjs', { env: { PORT: '0' } });
  process.on('exit', () => upstream.child.kill('SIGKILL'));
  entry = { url: `http://127.0.0.1:${String(upstream.port)}/mcp` };
}
// MCPKIT_BENCH_GATEWAY_POLICY=1: with policies (four rules, one constraining an argument, for
// the anonymous caller of the bench); =audit: and the audit log (a file in the temporary folder).
// MCPKIT_BENCH_GATEWAY_AUDIT=1: the audit log to that file, with or without policies.
// Issue #40: the cost of policies and audit per forwarded call.
const policy = process.env['MCPKIT_BENCH_GATEWAY_POLICY'];
const policies =
  policy === undefined || policy === ''
    ? {}
    : {
        policies: [
          { name: 'admins', when: { scopes: ['admin'] }, tools: { allow: ['*'] } },
          { name: 'ops', when: { clients: ['ops-*'] }, tools: { allow: ['upstream/wide_*'] } },
          { name: 'no-deletes', tools: { deny: ['*/delete_*'] } },
          {
            name: 'everyone',
            // wide_00: the tool the scaling section calls.
            tools: { allow: ['upstream/echo', 'upstream/add', 'upstream/wide_00'] },
            arguments: { 'upstream/add': { a: [1, 2, 3] } },
          },
        ],
      };
const audit =
  policy === 'audit' || process.env['MCPKIT_BENCH_GATEWAY_AUDIT'] === '1'
    ? { audit: { to: join(dirname(config), 'audit.jsonl') } }
    : {};
const team = { ...policies, ...audit };
// MCPKIT_BENCH_GATEWAY_LIMITS=1: every rate limit on (in memory), so high that none refuses: what
// the limits cost a call (issue #40).
const limits =
  process.env['MCPKIT_BENCH_GATEWAY_LIMITS'] === '1'
    ? {
        rateLimits: {
          principal: { rate: 1e9, per: 'second' },
          tools: { '*': { rate: 1e9, per: 'second' } },
          upstreams: { upstream: { rate: 1e9, per: 'second', maxConcurrent: 1024 } },
        },
      }
    : {};
writeFileSync(config, JSON.stringify({ mcpServers: { upstream: entry }, ...team, ...limits }));

const { main } = await import('../../dist/esm/src/cli/main.js');
let said = '';
const io = {
  stdout: process.stdout,
  stderr: {
    write(text) {
      said += text;
      const match = /http:\/\/127\.0\.0\.1:(\d+)\/mcp/.exec(said);
      if (match !== null && said !== '') {
        said = '';
        ready(Number(match[1]));
      }
      return true;
    },
  },
  stdin: process.stdin,
  isTTY: false,
  env: process.env,
  color: false,
};
const code = await main(['gateway', '--config', config, '--http', String(PORT), '--quiet'], io);
process.exit(code);
