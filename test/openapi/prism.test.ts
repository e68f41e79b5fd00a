// GitHub's REST API through `mcpkit serve openapi`, against a mock that follows the document:
// Prism (@stoplight/prism-cli) serves GitHub's description cut to its issues and pulls
// endpoints (the same operations and the components they reach, unchanged), validates every
// request against it (--errors: a request the document does not allow is answered 4xx), and
// answers from its examples. The CLI serves the same document, curated to those tags, to the
// official SDK clients over stdio (v1, 2025-11-25) and Streamable HTTP (v2, 2026-07-28).
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  Client as ClientV2,
  StreamableHTTPClientTransport as HttpV2,
} from '@modelcontextprotocol/client';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const BIN = fileURLToPath(new URL('../../dist/esm/src/cli/main.js', import.meta.url));
const PRISM = fileURLToPath(
  new URL('../../node_modules/@stoplight/prism-cli/dist/index.js', import.meta.url),
);
const GITHUB = fileURLToPath(
  new URL('../../node_modules/@octokit/openapi/generated/api.github.com.json', import.meta.url),
);
const ready = existsSync(BIN) && existsSync(PRISM) && existsSync(GITHUB);
if (!ready) console.log('openapi prism: skipped, dist/ or a devDependency is missing');

type Json = Record<string, unknown>;
const TAGS = ['issues', 'pulls'];
const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace'];

/** The document with only the operations tagged issues or pulls, and the components they reach. */
function cut(document: Json): Json {
  const paths: Json = {};
  for (const [path, item] of Object.entries(document['paths'] as Record<string, Json>)) {
    const kept = Object.entries(item).filter(
      ([key, op]) =>
        !METHODS.includes(key) || ((op as Json)['tags'] as string[]).some((t) => TAGS.includes(t)),
    );
    if (kept.some(([key]) => METHODS.includes(key))) paths[path] = Object.fromEntries(kept);
  }
  const components = document['components'] as Record<string, Json>;
  const reached: Record<string, Json> = {};
  const queue: unknown[] = [paths];
  while (queue.length > 0) {
    const node = queue.pop();
    if (Array.isArray(node)) queue.push(...(node as unknown[]));
    else if (typeof node === 'object' && node !== null) {
      const ref = (node as Json)['$ref'];
      if (typeof ref === 'string' && ref.startsWith('#/components/')) {
        const [, , kind = '', name = ''] = ref.split('/');
        const target = components[kind]?.[name];
        if (target !== undefined && reached[kind]?.[name] === undefined) {
          reached[kind] = { ...reached[kind], [name]: target };
          queue.push(target);
        }
      }
      queue.push(...Object.values(node));
    }
  }
  // The webhooks (x-webhooks) are not operations: left out with the components only they reach.
  const { openapi, info, servers, tags } = document;
  return { openapi, info, servers, tags, paths, components: reached };
}

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => {
        resolve(port);
      });
    });
  });
}

/** Spawns `args` and resolves with the first match of `pattern` in its output. */
function started(child: ChildProcess, pattern: RegExp): Promise<string> {
  return new Promise((resolve, reject) => {
    let seen = '';
    const look = (chunk: Buffer) => {
      seen += chunk.toString();
      const found = pattern.exec(seen);
      if (found !== null) resolve(found[0]);
    };
    child.stdout?.on('data', look);
    child.stderr?.on('data', look);
    child.on('exit', () => {
      reject(new Error(`exited before ready: ${seen.slice(-2000)}`));
    });
  });
}

const dir = mkdtempSync(join(tmpdir(), 'mcpkit-prism-'));
const DOC = join(dir, 'github-issues-pulls.json');
let prism: ChildProcess;
let prismLog = '';
let mock = '';
const children: ChildProcess[] = [];

beforeAll(async () => {
  if (!ready) return;
  writeFileSync(DOC, JSON.stringify(cut(JSON.parse(readFileSync(GITHUB, 'utf8')) as Json)));
  const port = await freePort();
  prism = spawn(
    process.execPath,
    [PRISM, 'mock', '--errors', '-h', '127.0.0.1', '-p', String(port), DOC],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  prism.stdout?.on('data', (chunk: Buffer) => (prismLog += chunk.toString()));
  prism.stderr?.on('data', (chunk: Buffer) => (prismLog += chunk.toString()));
  await started(prism, /Prism is listening/);
  mock = `http://127.0.0.1:${String(port)}`;
}, 180_000);

afterAll(() => {
  for (const child of children) child.kill('SIGTERM');
  prism?.kill('SIGTERM');
  rmSync(dir, { recursive: true, force: true });
});

const serveArgs = (...extra: string[]): string[] => [
  BIN,
  'serve',
  'openapi',
  DOC,
  '--no-validate',
  '--base-url',
  mock,
  '--include-tag',
  'issues',
  '--include-tag',
  'pulls',
  ...extra,
];

type Result = {
  isError?: boolean;
  content: { type: string; text?: string }[];
  structuredContent?: Json;
};

describe.skipIf(!ready)("GitHub's issues and pulls against Prism", () => {
  it('over stdio with the official v1 client (2025-11-25): requests as the document says', async () => {
    const client = new ClientV1({ name: 'v1', version: '1' });
    await client.connect(
      new StdioClientTransport({ command: process.execPath, args: serveArgs() }),
    );
    try {
      // 92 tools are over the default budget: the client sees search_tools, and what it finds
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toEqual(['search_tools']);
      for (const query of ['list repository issues', 'create an issue', 'pull request merged']) {
        const found = (await client.callTool({
          name: 'search_tools',
          arguments: { query, limit: 5 },
        })) as Result;
        expect(found.isError, found.content[0]?.text).toBeFalsy();
      }
      const listed = (await client.listTools()).tools.map((t) => t.name);
      for (const name of ['issues_list-for-repo', 'issues_create', 'pulls_check-if-merged'])
        expect(listed).toContain(name);
      const list = (await client.callTool({
        name: 'issues_list-for-repo',
        arguments: {
          owner: 'octocat',
          repo: 'hello-world',
          state: 'closed',
          labels: 'bug,ui',
          per_page: 5,
        },
      })) as Result;
      expect(list.isError, list.content[0]?.text).toBeFalsy();
      // (an issue's schema is past the default outputChars: the answer comes as JSON text)
      expect(Array.isArray(JSON.parse(list.content[0]?.text ?? ''))).toBe(true);
      const created = (await client.callTool({
        name: 'issues_create',
        arguments: {
          owner: 'octocat',
          repo: 'hello-world',
          body: { title: 'Found a bug', labels: ['bug'] },
        },
      })) as Result;
      expect(created.isError, created.content[0]?.text).toBeFalsy();
      expect(typeof (JSON.parse(created.content[0]?.text ?? '') as Json)['number']).toBe('number');
      const pull = (await client.callTool({
        // (Not pulls_list or pulls_get: GitHub's own example pull request breaks its schema at
        // requested_teams, so Prism --errors answers those 500 whatever the request.)
        name: 'pulls_check-if-merged',
        arguments: { owner: 'octocat', repo: 'hello-world', pull_number: 1347 },
      })) as Result;
      expect(pull.isError, pull.content[0]?.text).toBeFalsy();
      expect(pull.content).toEqual([{ type: 'text', text: 'HTTP 204 No Content' }]);
      // Prism logs each request it received and validated (--errors answers a violation 422).
      for (const line of [
        /\[HTTP SERVER\] get \/repos\/octocat\/hello-world\/issues /,
        /\[HTTP SERVER\] post \/repos\/octocat\/hello-world\/issues /,
        /\[HTTP SERVER\] get \/repos\/octocat\/hello-world\/pulls\/1347\/merge /,
      ]) {
        await expect.poll(() => prismLog, { timeout: 10_000 }).toMatch(line);
      }
      expect(prismLog).not.toMatch(/Violation/);
    } finally {
      await client.close();
    }
  }, 60_000);

  it('over Streamable HTTP with the official v2 client (2026-07-28); errors come back as isError with the status', async () => {
    const child = spawn(
      process.execPath,
      [...serveArgs('--http', '0', '--quiet', '--budget', 'off'), '-H', 'Prefer: code=404'],
      {
        stdio: ['ignore', 'ignore', 'pipe'],
      },
    );
    children.push(child);
    const url = await started(child, /http:\/\/\S+\/mcp/);
    const client = new ClientV2({ name: 'v2', version: '1' }, {
      versionNegotiation: { mode: 'auto' },
    } as never);
    await client.connect(new HttpV2(new URL(url)));
    try {
      const missing = (await client.callTool({
        name: 'issues_get',
        arguments: { owner: 'octocat', repo: 'hello-world', issue_number: 1 },
      })) as Result;
      expect(missing.isError).toBe(true);
      expect(missing.content[0]?.text).toMatch(/^HTTP 404 Not Found: /);
      // Arguments the document does not allow are refused before any request (mcpkit checks the
      // input schema generated from it).
      const refused = (await client.callTool({
        name: 'pulls_create',
        arguments: {
          owner: 'octocat',
          repo: 'hello-world',
          body: { head: 'a', base: 'main', draft: 'yes' },
        },
      })) as Result;
      expect(refused.isError).toBe(true);
    } finally {
      await client.close();
    }
  }, 60_000);
});
