// Instructions per tools/call of the gateway's access middleware alone (issue #40): MODE policy
// (four rules, one constraining an argument, the call allowed), audit (the same and an audit
// record, serialized and dropped), none (the audit record without policies), file (the audit
// record without policies, written by openAuditLog to a file in the temporary folder, the loop
// letting the event loop turn every 64 calls as 64 calls in flight would). Bundle it and count
// two runs under callgrind; the per-call figure is the difference over the difference in calls:
//   npx esbuild scripts/gateway-access-probe.ts --bundle --platform=node --format=esm --outfile=/tmp/probe.mjs
//   valgrind --tool=callgrind --callgrind-out-file=/dev/null node --single-threaded /tmp/probe.mjs MODE 20000
//   (and 60000; per call: (I(60000) - I(20000)) / 40000). bench/RESULTS.md, "The gateway's policies".
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import process from 'node:process';
import { accessMiddleware } from '../src/gateway/access.js';
import { openAuditLog } from '../src/gateway/audit.js';
import { parsePolicies } from '../src/gateway/policy/config.js';

const [mode = 'policy', countText = '1000'] = process.argv.slice(2);
const count = Number(countText);
const policy = parsePolicies(
  [
    { name: 'admins', when: { scopes: ['admin'] }, tools: { allow: ['*'] } },
    { name: 'ops', when: { clients: ['ops-*'] }, tools: { allow: ['upstream/wide_*'] } },
    { name: 'no-deletes', tools: { deny: ['*/delete_*'] } },
    {
      name: 'everyone',
      tools: { allow: ['upstream/echo', 'upstream/add'] },
      arguments: { 'upstream/add': { a: [1, 2, 3] } },
    },
  ],
  [],
);
let written = 0;
const dir = mode === 'file' ? mkdtempSync(join(tmpdir(), 'mcpkit-access-probe-')) : undefined;
const log = dir === undefined ? undefined : openAuditLog(join(dir, 'audit.jsonl'));
const access = accessMiddleware({
  endpoint: '',
  policy: mode === 'none' || mode === 'file' ? undefined : policy,
  audit:
    log !== undefined
      ? log.sink
      : mode === 'audit' || mode === 'none'
        ? (record) => {
            written += JSON.stringify(record).length;
          }
        : undefined,
  auditArguments: false,
});
const origin = { upstream: 'upstream', name: 'add' };
const lookup = {
  name: '',
  tool: (served: string) => (served === 'add' ? origin : undefined),
  prompt: () => undefined,
  resource: () => undefined,
  template: () => undefined,
};
const [middleware] = access.middleware(lookup);
if (middleware === undefined || typeof middleware !== 'function') throw new Error('no middleware');
const auth = {
  subject: 'ada',
  clientId: 'app',
  scopes: ['mcp'],
  expiresAt: undefined,
  claims: { iss: 'x' },
};
const ctx = {
  id: 1,
  method: 'tools/call',
  params: { name: 'add', arguments: { a: 2, b: 3 } },
  era: 'modern',
  auth,
} as never;
const result = { content: [{ type: 'text', text: '5' }] };
const next = () => result;
for (let i = 0; i < count; i++) {
  middleware(ctx, next);
  if (log !== undefined && i % 64 === 63) await new Promise((resolve) => setImmediate(resolve));
}
if (log !== undefined) await log.close();
if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
if (written < 0) console.log(written);
