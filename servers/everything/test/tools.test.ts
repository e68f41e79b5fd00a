import { gunzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { MODERN } from '../../../test/helpers/wire.js';
import { TINY_PNG_BASE64 } from '../logic.js';
import { ERAS, connect, textOf, type Connected, type Era } from './connect.js';

const open: Connected[] = [];
async function connected(era: Era, options?: Parameters<typeof connect>[1]): Promise<Connected> {
  const c = await connect(era, options);
  open.push(c);
  return c;
}
afterEach(async () => {
  await Promise.all(open.splice(0).map((c) => c.close()));
});

const TOOL_NAMES = [
  'echo',
  'get-annotated-message',
  'get-env',
  'get-resource-links',
  'get-resource-reference',
  'get-roots-list',
  'get-structured-content',
  'get-sum',
  'get-tiny-image',
  'gzip-file-as-resource',
  'sample-llm',
  'simulate-research-query',
  'toggle-simulated-logging',
  'toggle-subscriber-updates',
  'trigger-long-running-operation',
];

describe('everything tools: listing', () => {
  for (const era of ERAS) {
    it(`lists every tool with a tight schema and a description (${era})`, async () => {
      const c = await connected(era);
      const { tools } = await c.send('tools/list');
      expect(tools.map((t: { name: string }) => t.name).sort()).toEqual(TOOL_NAMES);
      for (const tool of tools) {
        expect(tool.description.length).toBeGreaterThan(20);
        expect(tool.inputSchema).toMatchObject({ type: 'object', additionalProperties: false });
      }
      const structured = tools.find((t: { name: string }) => t.name === 'get-structured-content');
      if (era === '2024-11-05') {
        expect(structured.outputSchema).toBeUndefined();
      } else {
        expect(structured.outputSchema).toMatchObject({
          type: 'object',
          required: ['temperature', 'conditions', 'humidity'],
          additionalProperties: false,
        });
      }
      const sum = tools.find((t: { name: string }) => t.name === 'get-sum');
      expect(sum.inputSchema).toMatchObject({ required: ['a', 'b'] });
      c.check();
    });
  }
});

describe('everything tools: calls', () => {
  for (const era of ERAS) {
    it(`answers echo, get-sum, get-tiny-image and get-annotated-message (${era})`, async () => {
      const c = await connected(era);
      expect(textOf(await c.call('echo', { message: 'hi there' }))).toBe('Echo: hi there');
      expect(textOf(await c.call('get-sum', { a: 7, b: 5 }))).toBe('The sum of 7 and 5 is 12.');
      const image = await c.call('get-tiny-image');
      expect(image.content).toEqual([
        { type: 'text', text: 'Here is a tiny image:' },
        { type: 'image', data: TINY_PNG_BASE64, mimeType: 'image/png' },
        { type: 'text', text: 'That was a 1x1 PNG.' },
      ]);
      const annotated = await c.call('get-annotated-message', {
        messageType: 'error',
        includeImage: true,
      });
      expect(annotated.content).toEqual([
        {
          type: 'text',
          text: 'Error: the operation failed.',
          annotations: { priority: 1, audience: ['user', 'assistant'] },
        },
        {
          type: 'image',
          data: TINY_PNG_BASE64,
          mimeType: 'image/png',
          annotations: { priority: 0.5, audience: ['user'] },
        },
      ]);
      const debug = await c.call('get-annotated-message', { messageType: 'debug' });
      expect(debug.content).toHaveLength(1);
      c.check();
    });

    it(`returns structured content with its text mirror (${era})`, async () => {
      const c = await connected(era);
      const result = await c.call('get-structured-content', { location: 'Chicago' });
      expect(result.structuredContent).toEqual({
        temperature: 18,
        conditions: 'Light rain',
        humidity: 82,
      });
      expect(JSON.parse(textOf(result))).toEqual(result.structuredContent);
      const bad = await c.call('get-structured-content', { location: 'Paris' });
      expect(bad.isError).toBe(true);
      expect(textOf(bad)).toMatch(/location/);
      c.check();
    });

    it(`links and embeds resources (${era})`, async () => {
      const c = await connected(era);
      const links = await c.call('get-resource-links', { count: 5 });
      if (era === '2024-11-05') {
        // No resource_link block before 2025-06-18: the URIs come as text.
        expect(links.content).toHaveLength(1);
        expect(textOf(links)).toMatch(/demo:\/\/resource\/static\/document\/readme\.md/);
      } else {
        const blocks = links.content.filter((b: { type: string }) => b.type === 'resource_link');
        expect(blocks).toHaveLength(5);
        expect(blocks[0]).toMatchObject({
          uri: 'demo://resource/static/document/readme.md',
          name: 'readme.md',
          mimeType: 'text/markdown',
        });
        expect(blocks[4]).toMatchObject({ uri: 'demo://resource/dynamic/text/1' });
      }
      const text = await c.call('get-resource-reference', { resourceId: 7 });
      expect(text.content[1]).toEqual({
        type: 'resource',
        resource: {
          uri: 'demo://resource/dynamic/text/7',
          mimeType: 'text/plain',
          text: 'Dynamic text resource 7, revision 1.',
        },
      });
      const blob = await c.call('get-resource-reference', { resourceType: 'blob', resourceId: 2 });
      expect(blob.content[1].resource).toMatchObject({
        uri: 'demo://resource/dynamic/blob/2',
        mimeType: 'application/octet-stream',
        blob: expect.any(String),
      });
      const outOfRange = await c.call('get-resource-reference', { resourceId: 101 });
      expect(outOfRange.isError).toBe(true);
      c.check();
    });

    it(`gzips a resource or inline data, and refuses ambiguous input (${era})`, async () => {
      const c = await connected(era);
      const fromUri = await c.call('gzip-file-as-resource', {
        name: 'readme.md.gz',
        uri: 'demo://resource/static/document/readme.md',
      });
      const embedded = fromUri.content[1].resource;
      expect(embedded).toMatchObject({
        uri: 'demo://resource/gzip/readme.md.gz',
        mimeType: 'application/gzip',
      });
      expect(gunzipSync(Buffer.from(embedded.blob, 'base64')).toString()).toMatch(/^# everything/);
      // The output stays readable as a resource.
      const read = await c.send('resources/read', { uri: 'demo://resource/gzip/readme.md.gz' });
      expect(read.contents[0].blob).toBe(embedded.blob);
      const inline = await c.call('gzip-file-as-resource', { name: 'x.gz', data: 'abc' });
      const bytes = Buffer.from(inline.content[1].resource.blob, 'base64');
      expect(gunzipSync(bytes).toString()).toBe('abc');
      for (const args of [
        { name: 'both.gz', data: 'a', uri: 'demo://resource/static/document/notes.txt' },
        { name: 'none.gz' },
        { name: 'missing.gz', uri: 'demo://resource/nope' },
        { name: '../escape', data: 'a' },
        { name: 'web.gz', uri: 'https://example.com/' },
      ]) {
        const refused = await c.call('gzip-file-as-resource', args);
        expect(refused.isError, JSON.stringify(args)).toBe(true);
      }
      c.check();
    });

    it(`shows only allow-listed environment variables (${era})`, async () => {
      const env = { SAFE_VALUE: 'ok', SECRET_KEY: 'hunter2' };
      const none = await connected(era, { server: { env } });
      expect(JSON.parse(textOf(await none.call('get-env')))).toEqual({});
      const some = await connected(era, {
        server: { env, envAllowList: ['SAFE_VALUE', 'UNSET'] },
      });
      const shown = textOf(await some.call('get-env'));
      expect(JSON.parse(shown)).toEqual({ SAFE_VALUE: 'ok' });
      expect(shown).not.toMatch(/hunter2/);
      none.check();
      some.check();
    });
  }

  it('gives schema failures back as isError naming the argument', async () => {
    const c = await connected('2025-11-25');
    const result = await c.call('get-sum', { a: 'seven', b: 5 });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/\ba\b/);
    const extra = await c.call('echo', { message: 'x', loud: true });
    expect(extra.isError).toBe(true);
    await expect(c.call('no-such-tool')).rejects.toMatchObject({ code: -32602 });
    c.check();
  });

  it('keeps a bounded number of gzip outputs', async () => {
    const c = await connected(MODERN);
    for (let i = 0; i < 20; i++) {
      await c.call('gzip-file-as-resource', { name: `f${String(i)}.gz`, data: String(i) });
    }
    await expect(
      c.send('resources/read', { uri: 'demo://resource/gzip/f0.gz' }),
    ).rejects.toMatchObject({ code: -32602 });
    await expect(
      c.send('resources/read', { uri: 'demo://resource/gzip/f19.gz' }),
    ).resolves.toMatchObject({ contents: [{ mimeType: 'application/gzip' }] });
  });
});
