// Calls of generated tools against a real HTTP API on 127.0.0.1 that this test runs (the
// petstore document of test/openapi): parameters written as the document says (styles, headers,
// cookies), JSON, form and multipart bodies, credentials of every scheme (bearer, API keys,
// basic, OAuth client credentials from oidc-provider), images, HTTP errors as isError results,
// large answers cut, redirects (same origin followed, another origin with credentials refused)
// and private addresses refused. Through mcpkit's Client over a memory pair.
import { readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { Client } from '../../src/client/index.js';
import type { OpenApiOptions } from '../../src/openapi/index.js';
import {
  DEFAULT_MAX_TOOLS,
  MAX_FOUND,
  createOpenApiServer,
  loadDocument,
} from '../../src/openapi/index.js';
import type { OpenApiDocument } from '../../src/openapi/index.js';
import { createMemoryPair } from '../../src/transports/memory.js';
import type { AuthorizationServer } from '../helpers/oidc.js';
import { CLIENT_ID, CLIENT_SECRET, startAuthorizationServer } from '../helpers/oidc.js';

const PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000001', 'hex');

interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}
const seen: Seen[] = [];
let api: ReturnType<typeof createServer>;
let base = '';
let auth: AuthorizationServer;
let document: OpenApiDocument;

function answer(
  res: ServerResponse,
  status: number,
  body: unknown,
  type = 'application/json',
): true {
  res.writeHead(status, { 'content-type': type });
  res.end(typeof body === 'string' || Buffer.isBuffer(body) ? body : JSON.stringify(body));
  return true;
}

/** Tokens the API no longer takes (revoked before they expired). */
const revoked = new Set<string>();

async function route(req: IncomingMessage, res: ServerResponse, body: Buffer): Promise<unknown> {
  const url = new URL(req.url ?? '/', base);
  const path = url.pathname;
  const bearer = req.headers.authorization;
  if (path === '/v1/pets' && req.method === 'GET') {
    if (bearer !== 'Bearer good-token') return answer(res, 401, { message: 'Bad credentials' });
    if (req.headers['x-request-id'] === 'many') {
      const pets = Array.from({ length: 50 }, (_, i) => ({ id: i, name: `pet ${String(i)}` }));
      return answer(res, 200, pets);
    }
    return answer(res, 200, [{ id: 1, name: 'Rex', species: 'dog', tag: null }]);
  }
  if (path === '/v1/pets' && req.method === 'POST') {
    if (req.headers['x-api-key'] !== 'key-1') return answer(res, 403, { error: 'no key' });
    return answer(res, 201, { id: 7, ...(JSON.parse(body.toString()) as object) });
  }
  if (path === '/v1/pets/1' && req.method === 'GET')
    return answer(res, 200, { id: 1, name: 'Rex' });
  if (path === '/v1/pets/404') return answer(res, 404, { message: 'no pet 404' });
  if (path === '/v1/pets/1' && req.method === 'DELETE') {
    res.writeHead(204).end();
    return true;
  }
  if (path === '/v1/pets/1/photo' && req.method === 'POST') {
    const form = await new Request(url, {
      method: 'POST',
      headers: { 'content-type': String(req.headers['content-type']) },
      body: new Uint8Array(body),
    }).formData();
    const file = form.get('file') as File;
    const attachments = form.getAll('attachments') as File[];
    const labels = form.getAll('labels');
    return answer(res, 200, {
      bytes: file.size,
      caption: form.get('caption'),
      ...(attachments.length === 0 ? {} : { attachments: attachments.map((f) => f.size) }),
      ...(labels.length === 0 ? {} : { labels }),
    });
  }
  if (path === '/v1/pets/1/photo') return answer(res, 200, PNG, 'image/png');
  if (path === '/v1/search' || path.startsWith('/v1/matrix')) {
    return answer(res, 200, `${req.url ?? ''} cookie=${req.headers.cookie ?? ''}`, 'text/plain');
  }
  if (path === '/v1/login') {
    const expected = `Basic ${Buffer.from('ann:pw:1').toString('base64')}`;
    if (bearer !== expected) return answer(res, 401, { message: 'who?' });
    return answer(res, 200, { ok: body.toString() === 'user=ann&remember=true' });
  }
  if (path === '/v1/redirect') {
    res.writeHead(302, { location: url.searchParams.get('to') ?? '/' }).end();
    return true;
  }
  if (path === '/v1/landing') {
    const version = req.headers['x-api-version'];
    const echoed = version === undefined ? '' : ` version=${String(version)}`;
    return answer(res, 200, `landed auth=${bearer ?? 'none'}${echoed}`, 'text/plain');
  }
  if (path === '/v1/secret') {
    if (bearer === undefined || !/^Bearer \S{20,}$/.test(bearer) || revoked.has(bearer))
      return answer(res, 401, {});
    return answer(res, 200, { secret: 'opened' });
  }
  if (path === '/v1/big') return answer(res, 200, 'x'.repeat(300_000), 'text/plain');
  return answer(res, 404, { message: `no route ${path}` });
}

beforeAll(async () => {
  api = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      seen.push({
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: body.toString(),
      });
      route(req, res, body).catch((error: unknown) => answer(res, 500, { message: String(error) }));
    });
  });
  await new Promise<void>((resolve) => api.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${String((api.address() as AddressInfo).port)}`;
  auth = await startAuthorizationServer(['read']);
  const raw = parse(readFileSync(new URL('petstore.yaml', import.meta.url), 'utf8')) as Record<
    string,
    any
  >;
  raw['components'].securitySchemes.oauth.flows.clientCredentials.tokenUrl = `${auth.issuer}/token`;
  document = await loadDocument(raw);
}, 30_000);

afterAll(async () => {
  await auth.close();
  await new Promise((resolve) => api.close(resolve));
});

async function connect(options: OpenApiOptions = {}) {
  const served = createOpenApiServer(document, { baseUrl: `${base}/v1`, ...options });
  const [a, b] = createMemoryPair();
  await served.server.connect(b);
  const client = new Client({ name: 'openapi-test', version: '1.0.0' });
  await client.connect(a);
  return { client, served };
}

const ENV = {
  MCPKIT_OPENAPI_AUTH_BEARERAUTH: 'good-token',
  MCPKIT_OPENAPI_AUTH_APIKEYHEADER: 'key-1',
  MCPKIT_OPENAPI_AUTH_APIKEYQUERY: 'q-key',
  MCPKIT_OPENAPI_AUTH_BASICAUTH: 'ann:pw:1',
  MCPKIT_OPENAPI_AUTH_OAUTH: `${CLIENT_ID}:${CLIENT_SECRET}`,
};

const last = (): Seen => seen[seen.length - 1]!;

describe('calling an API through generated tools', () => {
  it('sends query, header and bearer credentials; JSON comes back structured', async () => {
    const { client } = await connect({ env: ENV });
    const result = await client.callTool('listPets', {
      limit: 5,
      tags: ['a', 'b'],
      'X-Request-Id': 'r1',
    });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toEqual({
      result: [{ id: 1, name: 'Rex', species: 'dog', tag: null }],
    });
    expect(last().url).toBe('/v1/pets?limit=5&tags=a&tags=b');
    expect(last().headers['x-request-id']).toBe('r1');
    expect(last().headers.authorization).toBe('Bearer good-token');
    await client.close();
  });

  it('HTTP errors are isError results with the status and the API message', async () => {
    const { client } = await connect({ env: {} });
    const denied = await client.callTool('listPets', {});
    expect(denied).toMatchObject({
      isError: true,
      content: [{ type: 'text', text: 'HTTP 401 Unauthorized: Bad credentials' }],
    });
    const missing = await client.callTool('getPet', { petId: 404 });
    expect(missing.content).toEqual([{ type: 'text', text: 'HTTP 404 Not Found: no pet 404' }]);
    const bad = await client.callTool('getPet', { petId: 'one' });
    expect(bad.isError).toBe(true);
    await client.close();
  });

  it('JSON body with an API key header; form body with basic auth', async () => {
    const { client } = await connect({ env: ENV });
    const created = await client.callTool('createPet', { body: { name: 'Tom', species: 'cat' } });
    expect(created.structuredContent).toEqual({ id: 7, name: 'Tom', species: 'cat' });
    expect(last().headers['content-type']).toBe('application/json');
    expect(last().headers['x-api-key']).toBe('key-1');
    const login = await client.callTool('login', { body: { user: 'ann', remember: true } });
    expect(login.structuredContent).toEqual({ ok: true });
    expect(last().headers['content-type']).toBe('application/x-www-form-urlencoded');
    await client.close();
  });

  it('styles: deepObject, pipeDelimited, cookie parameters, API key in the query; matrix paths', async () => {
    const { client } = await connect({ env: ENV });
    const found = await client.callTool('search', {
      filter: { species: 'dog', age: 3 },
      ids: [1, 2],
      session: 's 1',
    });
    expect(found.content).toEqual([
      {
        type: 'text',
        text: '/v1/search?filter%5Bspecies%5D=dog&filter%5Bage%5D=3&ids=1|2&api_key=q-key cookie=session=s%201',
      },
    ]);
    const matrix = await client.callTool('get_matrix_coords', { coords: { x: 1, y: 2 } });
    expect((matrix.content[0] as { text: string }).text).toMatch(/^\/v1\/matrix\/;x=1;y=2 /);
    await client.close();
  });

  it('multipart with a base64 file; an image answer is an image block; 204 is fine', async () => {
    const { client } = await connect({ env: ENV });
    const stored = await client.callTool('uploadPhoto', {
      petId: 1,
      body: { file: PNG.toString('base64'), caption: 'Rex' },
    });
    expect(stored.structuredContent).toEqual({ bytes: PNG.byteLength, caption: 'Rex' });
    expect(last().headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
    // An array of files is a part per file; an array of strings a part per string.
    const several = await client.callTool('uploadPhoto', {
      petId: 1,
      body: {
        file: PNG.toString('base64'),
        caption: 'three',
        attachments: [Buffer.from('ab').toString('base64'), { uri: 'data:text/plain,xyz' }],
        labels: ['cute', 'dog'],
      },
    });
    expect(several.structuredContent).toEqual({
      bytes: PNG.byteLength,
      caption: 'three',
      attachments: [2, 3],
      labels: ['cute', 'dog'],
    });
    const photo = await client.callTool('getPhoto', { petId: 1 });
    expect(photo.content).toEqual([
      { type: 'image', data: PNG.toString('base64'), mimeType: 'image/png' },
    ]);
    const deleted = await client.callTool('deletePet', { petId: 1 });
    expect(deleted.isError).toBeFalsy();
    expect(deleted.content).toEqual([{ type: 'text', text: 'HTTP 204 No Content' }]);
    // A resource link instead of base64: read from the API's host (trusted), or a data: URI.
    const linked = await client.callTool('uploadPhoto', {
      petId: 1,
      body: { file: { uri: `${base}/v1/pets/1/photo`, name: 'rex.png' }, caption: 'linked' },
    });
    expect(linked.structuredContent).toEqual({ bytes: PNG.byteLength, caption: 'linked' });
    const data = await client.callTool('uploadPhoto', {
      petId: 1,
      body: { file: { uri: `data:image/png;base64,${PNG.toString('base64')}` } },
    });
    // No caption: the API answers `"caption": null`, which its schema does not allow.
    expect(data).toMatchObject({ isError: true });
    expect((data.content[0] as { text: string }).text).toMatch(
      /^The API answered, but not as its description says .*"bytes":20,"caption":null/,
    );
    const privateLink = await client.callTool('uploadPhoto', {
      petId: 1,
      body: { file: { uri: `${base.replace('127.0.0.1', 'localhost')}/v1/pets/1/photo` } },
    });
    expect((privateLink.content[0] as { text: string }).text).toMatch(
      /refused to connect to localhost/,
    );
    const notBase64 = await client.callTool('uploadPhoto', { petId: 1, body: { file: '***' } });
    expect(notBase64).toMatchObject({
      isError: true,
      content: [{ text: '"file" must be base64-encoded' }],
    });
    await client.close();
  });

  it('OAuth 2 client credentials through the OAuth client, from oidc-provider', async () => {
    const { client } = await connect({ env: ENV });
    const secret = await client.callTool('getSecret', {});
    expect(secret.structuredContent).toEqual({ secret: 'opened' });
    const token = String(last().headers.authorization);
    expect(token).toMatch(/^Bearer /);
    // The API stops taking the token before it expires: a 401, a new token, the call again.
    revoked.add(token);
    const count = seen.length;
    const again = await client.callTool('getSecret', {});
    expect(again.structuredContent).toEqual({ secret: 'opened' });
    const tries = seen.slice(count).map((request) => request.headers.authorization);
    expect(tries).toHaveLength(2);
    expect(tries[0]).toBe(token);
    expect(tries[1]).toMatch(/^Bearer /);
    expect(tries[1]).not.toBe(token);
    await client.close();
  }, 20_000);

  it('cuts large text with a note; fixed values are sent and hidden', async () => {
    const { client } = await connect({
      env: ENV,
      maxTextChars: 1000,
      tools: { getPet: { fixed: { petId: 1 } } },
    });
    const big = await client.callTool('getBig', {});
    const text = (big.content[0] as { text: string }).text;
    expect(text.length).toBeLessThan(1200);
    expect(text).toMatch(/\[cut: 299000 more characters; read them from openapi-result:\/\/\S+\/1/);
    // The rest, in slices of the same size, each linking the next.
    const link = big.content[1] as { type: string; uri: string };
    expect(link).toMatchObject({ type: 'resource_link', mimeType: 'text/plain' });
    const second = await client.readResource(link.uri);
    const slice = (second.contents[0] as { text: string }).text;
    expect(slice.startsWith('x'.repeat(1000))).toBe(true);
    expect(slice).toMatch(/\[slice 2 of 300; the next: openapi-result:\/\/\S+\/2\]$/);
    const last = await client.readResource(link.uri.replace(/\/1$/, '/299'));
    expect((last.contents[0] as { text: string }).text).toBe('x'.repeat(1000));
    const tools = await client.listTools();
    expect(tools.find((t) => t.name === 'getPet')?.inputSchema['properties']).toEqual({});
    expect((await client.callTool('getPet', {})).structuredContent).toEqual({ id: 1, name: 'Rex' });
    // A cut JSON answer: the text links the rest, the structured content keeps the items that fit.
    const many = await client.callTool('listPets', { 'X-Request-Id': 'many' });
    expect(many.isError).toBeFalsy();
    expect((many.content[0] as { text: string }).text).toMatch(/\[cut: \d+ more characters/);
    expect(many.content[1]).toMatchObject({ type: 'resource_link' });
    const result = (many.structuredContent as { result: { id: number }[] }).result;
    expect(result.length).toBeGreaterThan(10);
    expect(result.length).toBeLessThan(50);
    expect(result.map((pet) => pet.id)).toEqual(result.map((_, i) => i));
    expect(JSON.stringify(many.structuredContent).length).toBeLessThanOrEqual(1000);
    await client.close();
  });

  it('redirects: same origin followed with credentials, another origin refused with them', async () => {
    const { client } = await connect({ env: ENV });
    const same = await client.callTool('followRedirect', { to: '/v1/landing' });
    expect(same.content).toEqual([{ type: 'text', text: 'landed auth=Bearer good-token' }]);
    const other = base.replace('127.0.0.1', 'localhost');
    const away = await client.callTool('followRedirect', { to: `${other}/v1/landing` });
    expect(away.isError).toBe(true);
    expect((away.content[0] as { text: string }).text).toMatch(/another origin .*credentials/);
    await client.close();
  });

  it('private addresses are refused beyond the API host unless allowed', async () => {
    const other = base.replace('127.0.0.1', 'localhost');
    const guarded = await connect({ env: {} });
    const refused = await guarded.client.callTool('followRedirect', { to: `${other}/v1/landing` });
    expect(refused.isError).toBe(true);
    expect((refused.content[0] as { text: string }).text).toMatch(
      /refused to connect to localhost/,
    );
    const literal = await guarded.client.callTool('followRedirect', { to: 'http://10.0.0.1/x' });
    expect((literal.content[0] as { text: string }).text).toMatch(
      /refused to connect to 10\.0\.0\.1/,
    );
    await guarded.client.close();
    const open = await connect({ env: {}, targets: { allow: ['127.0.0.1', '::1'] } });
    const landed = await open.client.callTool('followRedirect', { to: `${other}/v1/landing` });
    expect(landed.content).toEqual([{ type: 'text', text: 'landed auth=none' }]);
    await open.client.close();
  });

  it('configured headers stay with the API: dropped on another origin, refused if secret', async () => {
    const other = base.replace('127.0.0.1', 'localhost');
    const targets = { allow: ['127.0.0.1', '::1'] };
    const plain = await connect({ env: {}, targets, headers: { 'X-Api-Version': '2' } });
    const same = await plain.client.callTool('followRedirect', { to: '/v1/landing' });
    expect(same.content).toEqual([{ type: 'text', text: 'landed auth=none version=2' }]);
    const away = await plain.client.callTool('followRedirect', { to: `${other}/v1/landing` });
    expect(away.content).toEqual([{ type: 'text', text: 'landed auth=none' }]);
    await plain.client.close();
    const secret = await connect({ env: {}, targets, headers: { 'Private-Token': 'p' } });
    const refused = await secret.client.callTool('followRedirect', { to: `${other}/v1/landing` });
    expect(refused.isError).toBe(true);
    expect((refused.content[0] as { text: string }).text).toMatch(/another origin .*credentials/);
    await secret.client.close();
  });

  it('over a budget, search_tools finds and enables tools', async () => {
    const { client, served } = await connect({ env: ENV, budget: 50 });
    expect(served.mode).toBe('catalogue');
    expect((await client.listTools()).map((t) => t.name)).toEqual(['search_tools']);
    const found = await client.callTool('search_tools', { query: 'photo pet' });
    expect((found.content[0] as { text: string }).text).toMatch(/uploadPhoto/);
    const names = (await client.listTools()).map((t) => t.name);
    expect(names).toContain('getPhoto');
    expect((await client.callTool('getPhoto', { petId: 1 })).content[0]).toMatchObject({
      type: 'image',
    });
    await client.close();
  });

  it('past maxTools, search_tools too; the tools found longest ago leave the list', async () => {
    const many: OpenApiDocument = {
      openapi: '3.1.0',
      info: { title: 'many', version: '1' },
      paths: Object.fromEntries(
        Array.from({ length: DEFAULT_MAX_TOOLS + 1 }, (_, i) => [
          `/thing${String(i)}`,
          { get: { operationId: `thing${String(i)}`, summary: `Get thing number ${String(i)}` } },
        ]),
      ),
    };
    expect(createOpenApiServer(many, { baseUrl: base }).mode).toBe('catalogue');
    expect(createOpenApiServer(many, { baseUrl: base, budget: false }).mode).toBe('all');
    const served = createOpenApiServer(many, { baseUrl: base, maxTools: 100 });
    expect(served.mode).toBe('all');
    const listing = createOpenApiServer(many, { baseUrl: base, maxTools: 3 });
    const [a, b] = createMemoryPair();
    await listing.server.connect(b);
    const client = new Client({ name: 'openapi-test', version: '1.0.0' });
    await client.connect(a);
    for (let i = 0; i < MAX_FOUND + 5; i++) {
      await client.callTool('search_tools', { query: `thing${String(i)}`, limit: 1 });
    }
    const names = (await client.listTools()).map((t) => t.name);
    expect(names).toHaveLength(MAX_FOUND + 1);
    expect(names).toContain(`thing${String(MAX_FOUND + 4)}`);
    expect(names).not.toContain('thing0');
    await client.close();
  });
});
