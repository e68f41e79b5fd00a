// Swagger 2.0 through conversion: the Petstore of Swagger 2.0 (test/openapi/petstore-swagger2.json)
// converted to OpenAPI 3.0 by @scalar/openapi-upgrader, then served like any document against a
// real HTTP server on 127.0.0.1: `collectionFormat: multi` arrives exploded, `in: formData`
// as a form or multipart body (a `type: file` field as a file part), the API key in its header.
import { fileURLToPath } from 'node:url';
import type { IncomingHttpHeaders, Server } from 'node:http';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '../../src/client/index.js';
import type { OpenApiDocument } from '../../src/openapi/index.js';
import { createOpenApiServer, loadDocument } from '../../src/openapi/index.js';
import { createMemoryPair } from '../../src/transports/memory.js';

const FIXTURE = new URL('petstore-swagger2.json', import.meta.url);

interface Seen {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

const seen: Seen[] = [];
let api: Server;
let base = '';
let document: OpenApiDocument;

beforeAll(async () => {
  api = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      seen.push({
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('latin1'),
      });
      res.setHeader('content-type', 'application/json');
      if (req.url === '/v2/pet/7') res.end(JSON.stringify({ id: 7, name: 'Rex', photoUrls: [] }));
      else if (req.url?.startsWith('/v2/pet/findByStatus'))
        res.end(JSON.stringify([{ id: 1, name: 'Tom', photoUrls: [] }]));
      else res.end(JSON.stringify({ code: 200, type: 'ok', message: 'done' }));
    });
  });
  await new Promise<void>((resolve) => api.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${String((api.address() as AddressInfo).port)}/v2`;
  document = await loadDocument(fileURLToPath(FIXTURE));
}, 60_000);

afterAll(async () => {
  await new Promise((resolve) => api.close(resolve));
});

const last = (): Seen => seen[seen.length - 1]!;

describe('a Swagger 2.0 document', () => {
  it('is converted to OpenAPI 3.0, its host and basePath the server', () => {
    expect(document.openapi).toMatch(/^3\.0\./);
    expect(document.servers?.[0]?.url).toBe('https://petstore.swagger.io/v2');
  });

  it('is served: query arrays, API key, form and multipart bodies arrive as 2.0 said', async () => {
    const served = createOpenApiServer(document, {
      baseUrl: base,
      env: { MCPKIT_OPENAPI_AUTH_API_KEY: 'special-key' },
    });
    expect(served.tools.map((t) => t.name).sort()).toEqual([
      'addPet',
      'deletePet',
      'findPetsByStatus',
      'getInventory',
      'getPetById',
      'updatePet',
      'updatePetWithForm',
      'uploadFile',
    ]);
    const [a, b] = createMemoryPair();
    await served.server.connect(b);
    const client = new Client({ name: 'swagger2-test', version: '1.0.0' });
    await client.connect(a);
    try {
      const found = await client.callTool('findPetsByStatus', { status: ['available', 'sold'] });
      expect(found.isError).toBeFalsy();
      expect(last().url).toBe('/v2/pet/findByStatus?status=available&status=sold');

      const pet = await client.callTool('getPetById', { petId: 7 });
      expect(pet.structuredContent).toMatchObject({ id: 7, name: 'Rex' });
      expect(last().headers['api_key']).toBe('special-key');

      await client.callTool('updatePetWithForm', { petId: 7, body: { name: 'Max' } });
      expect(last()).toMatchObject({ method: 'POST', url: '/v2/pet/7', body: 'name=Max' });
      expect(last().headers['content-type']).toBe('application/x-www-form-urlencoded');

      const upload = await client.callTool('uploadFile', {
        petId: 7,
        body: { additionalMetadata: 'front', file: Buffer.from('PNGDATA').toString('base64') },
      });
      expect(upload.isError).toBeFalsy();
      expect(last().headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
      expect(last().body).toMatch(/name="additionalMetadata"\r\n\r\nfront\r\n/);
      expect(last().body).toMatch(/name="file"; filename="file"[\s\S]*PNGDATA/);

      await client.callTool('addPet', { body: { name: 'Rex', photoUrls: ['p'] } });
      expect(JSON.parse(last().body)).toEqual({ name: 'Rex', photoUrls: ['p'] });
      expect(last().headers['content-type']).toBe('application/json');
    } finally {
      await client.close();
    }
  });

  it('is refused with the reason when it is another Swagger version', async () => {
    await expect(
      loadDocument({ swagger: '1.2', info: { title: 't', version: '1' }, paths: {} }),
    ).rejects.toThrow(/Swagger 1\.2/);
  });
});
