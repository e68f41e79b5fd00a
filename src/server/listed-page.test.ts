import { describe, expect, it, vi } from 'vitest';
import { encode } from '../jsonrpc/codec.js';
import type { Request, Response } from '../jsonrpc/message.js';
import type { RequestContext } from '../jsonrpc/serve.js';
import { McpServer } from './server.js';

/** What JSON.stringify makes of the response's fields: the text made without any kept page. */
function plainText(response: Response): string {
  return JSON.stringify({ ...response });
}

type Listed = Response & { result?: Record<string, unknown> };

/** Serves one request on its own, 2026-07-28 (`modern`) or 2025-11-25 without a session. */
async function serve(
  server: McpServer,
  era: 'legacy' | 'modern',
  method: string,
  params: Record<string, unknown> = {},
): Promise<Listed> {
  const meta = {
    'io.modelcontextprotocol/protocolVersion': '2026-07-28',
    'io.modelcontextprotocol/clientCapabilities': {},
  };
  const sent = era === 'legacy' ? params : { ...params, _meta: meta };
  const message: Request = { jsonrpc: '2.0', id: 3, method, params: sent };
  const context = {
    id: 3,
    signal: new AbortController().signal,
    notify: () => Promise.resolve(),
    request: () => Promise.reject(new Error('no')),
    close: () => Promise.resolve(),
  } as unknown as RequestContext;
  const options =
    era === 'legacy' ? { legacyStateless: { revision: '2025-11-25' as const } } : undefined;
  return (await server.serveRequest(message, context, options)) as Listed;
}

const SCHEMA = { type: 'object', properties: { x: { type: 'string' } } } as const;

function listedServer(pageSize?: number): McpServer {
  const options = pageSize === undefined ? {} : { pageSize };
  const server = new McpServer({ name: 'lists', version: '1' }, options);
  for (const name of ['a', 'b', 'c', 'd', 'e']) {
    server.tool({ name, description: `tool "${name}"\n`, inputSchema: SCHEMA }, () => name);
    server.prompt({ name: `p${name}` }, () => name);
    server.resource({ uri: `file:///${name}`, name }, () => name);
  }
  server.resourceTemplate({ uriTemplate: 'file:///t/{x}', name: 't' }, () => 't');
  return server;
}

const LISTS = ['tools/list', 'prompts/list', 'resources/list', 'resources/templates/list'];
const ERAS = ['legacy', 'modern'] as const;

/** Every page of `method`'s listing (following nextCursor): each response's text, twice. */
async function pages(server: McpServer, era: 'legacy' | 'modern', method: string) {
  const texts: { first: string; again: string; plain: string }[] = [];
  let cursor: unknown;
  do {
    const params = cursor === undefined ? {} : { cursor };
    const response = await serve(server, era, method, params);
    const again = await serve(server, era, method, params);
    texts.push({ first: encode(response), again: encode(again), plain: plainText(again) });
    cursor = response.result?.['nextCursor'];
  } while (cursor !== undefined);
  return texts;
}

describe('listings served from their kept text', () => {
  for (const era of ERAS) {
    for (const pageSize of [undefined, 2]) {
      it(`equal the text made without it, every page (${era}, pageSize ${String(pageSize)})`, async () => {
        const server = listedServer(pageSize);
        for (const method of LISTS) {
          const texts = await pages(server, era, method);
          if (pageSize === 2 && method !== 'resources/templates/list') {
            expect(texts.length).toBe(3);
          }
          for (const { first, again, plain } of texts) {
            expect(again).toBe(first);
            expect(again).toBe(plain);
          }
        }
        if (era === 'modern') {
          const [page] = await pages(server, era, 'tools/list');
          expect(JSON.parse(page?.again ?? '')).toMatchObject({
            result: { resultType: 'complete', ttlMs: 0, cacheScope: 'private' },
          });
        }
      });
    }

    it(`are serialized once per page (${era})`, async () => {
      const server = listedServer();
      const first = encode(await serve(server, era, 'tools/list'));
      const stringify = vi.spyOn(JSON, 'stringify');
      try {
        expect(encode(await serve(server, era, 'tools/list'))).toBe(first);
        const listings = stringify.mock.calls.filter(([value]) => {
          const fields = value as Record<string, unknown> | null;
          return typeof fields === 'object' && fields !== null && 'tools' in fields;
        });
        expect(listings).toEqual([]);
      } finally {
        stringify.mockRestore();
      }
    });

    it(`change when a tool is added, disabled, enabled, updated or removed (${era})`, async () => {
      const server = listedServer();
      const names = async (): Promise<string[]> => {
        const response = await serve(server, era, 'tools/list');
        const text = encode(response);
        expect(text).toBe(plainText(response));
        const listed = (JSON.parse(text) as { result: { tools: { name: string }[] } }).result;
        return listed.tools.map((tool) => tool.name);
      };
      expect(await names()).toEqual(['a', 'b', 'c', 'd', 'e']);
      const added = server.tool({ name: 'f', inputSchema: SCHEMA }, () => 'f');
      expect(await names()).toEqual(['a', 'b', 'c', 'd', 'e', 'f']);
      added.disable();
      expect(await names()).toEqual(['a', 'b', 'c', 'd', 'e']);
      added.enable();
      expect(await names()).toEqual(['a', 'b', 'c', 'd', 'e', 'f']);
      added.update({ description: 'now described' });
      const response = await serve(server, era, 'tools/list');
      expect(encode(response)).toContain('now described');
      added.remove();
      expect(await names()).toEqual(['a', 'b', 'c', 'd', 'e']);
    });

    it(`answer what a request middleware made of the result (${era})`, async () => {
      const server = listedServer();
      let change: ((result: Record<string, unknown>) => unknown) | undefined;
      server.use(async (ctx, next) => {
        const result = (await next()) as Record<string, unknown>;
        return ctx.method === 'tools/list' && change !== undefined ? change(result) : result;
      });
      const listed = async (): Promise<string> => {
        const response = await serve(server, era, 'tools/list');
        const text = encode(response);
        expect(text).toBe(plainText(response));
        return text;
      };
      const kept = await listed();
      expect(await listed()).toBe(kept);
      const changes: ((result: Record<string, unknown>) => unknown)[] = [
        (result) => Object.assign(result, { tools: [] }),
        (result) => ({ ...result, extra: 1 }),
        (result) => Object.assign(result, { nextCursor: 'x' }),
        (result) => {
          const tools = result['tools'] as unknown[];
          delete result['tools'];
          return Object.assign(result, { other: 1, tools });
        },
      ];
      for (const each of changes) {
        change = each;
        expect(await listed()).not.toBe(kept);
      }
      change = undefined;
      expect(await listed()).toBe(kept);
    });

    it(`list what a template's list gives at each request (${era})`, async () => {
      const server = listedServer();
      let listedNow = ['one'];
      server.resourceTemplate(
        {
          uriTemplate: 'file:///dyn/{x}',
          name: 'dyn',
          list: () => listedNow.map((x) => ({ uri: `file:///dyn/${x}`, name: x })),
        },
        () => 'd',
      );
      const uris = async (): Promise<string[]> => {
        const response = await serve(server, era, 'resources/list');
        expect(encode(response)).toBe(plainText(response));
        const result = response.result as { resources: { uri: string }[] };
        return result.resources.map((r) => r.uri);
      };
      expect(await uris()).toContain('file:///dyn/one');
      listedNow = ['two'];
      const now = await uris();
      expect(now).toContain('file:///dyn/two');
      expect(now).not.toContain('file:///dyn/one');
    });
  }
});
