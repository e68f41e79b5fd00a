import { afterEach, describe, expect, it } from 'vitest';
import { MODERN } from '../../../test/helpers/wire.js';
import { TINY_PNG_BASE64, dynamicBlob } from '../logic.js';
import { ERAS, connect, type Connected, type Era } from './connect.js';

const open: Connected[] = [];
async function connected(era: Era): Promise<Connected> {
  const c = await connect(era);
  open.push(c);
  return c;
}
afterEach(async () => {
  await Promise.all(open.splice(0).map((c) => c.close()));
});

const notFoundCode = (era: Era) => (era === MODERN ? -32602 : -32002);

describe('everything resources', () => {
  for (const era of ERAS) {
    it(`lists documents, dynamic resources and templates (${era})`, async () => {
      const c = await connected(era);
      const { resources } = await c.send('resources/list');
      const uris = resources.map((r: { uri: string }) => r.uri);
      expect(uris.slice(0, 4)).toEqual([
        'demo://resource/static/document/readme.md',
        'demo://resource/static/document/settings.json',
        'demo://resource/static/document/notes.txt',
        'demo://resource/static/document/pixel.png',
      ]);
      expect(uris).toContain('demo://resource/dynamic/text/5');
      expect(uris).toContain('demo://resource/dynamic/blob/1');
      // 14 demo resources, the 2 MCP Apps views (ui://) and the 2 files of the mcpkit-tour
      // skill (skill://).
      expect(uris).toHaveLength(18);
      expect(uris).toContain('ui://everything/sum-form');
      expect(uris).toContain('skill://mcpkit-tour/SKILL.md');
      const { resourceTemplates } = await c.send('resources/templates/list');
      expect(resourceTemplates.map((t: { uriTemplate: string }) => t.uriTemplate)).toEqual([
        'demo://resource/dynamic/text/{id}',
        'demo://resource/dynamic/blob/{id}',
        'demo://resource/gzip/{name}',
      ]);
      c.check();
    });

    it(`reads text, binary and templated resources (${era})`, async () => {
      const c = await connected(era);
      const doc = await c.send('resources/read', {
        uri: 'demo://resource/static/document/settings.json',
      });
      expect(doc.contents).toEqual([
        {
          uri: 'demo://resource/static/document/settings.json',
          mimeType: 'application/json',
          text: expect.stringContaining('"theme": "dark"'),
        },
      ]);
      const png = await c.send('resources/read', {
        uri: 'demo://resource/static/document/pixel.png',
      });
      expect(png.contents[0]).toMatchObject({ mimeType: 'image/png', blob: TINY_PNG_BASE64 });
      const text = await c.send('resources/read', { uri: 'demo://resource/dynamic/text/42' });
      expect(text.contents[0]).toEqual({
        uri: 'demo://resource/dynamic/text/42',
        mimeType: 'text/plain',
        text: 'Dynamic text resource 42, revision 1.',
      });
      const blob = await c.send('resources/read', { uri: 'demo://resource/dynamic/blob/3' });
      expect(Buffer.from(blob.contents[0].blob, 'base64')).toEqual(Buffer.from(dynamicBlob(3, 1)));
      for (const uri of [
        'demo://resource/dynamic/text/0',
        'demo://resource/dynamic/text/101',
        'demo://resource/gzip/never-made.gz',
        'demo://resource/static/document/missing.md',
      ]) {
        await expect(c.send('resources/read', { uri }), uri).rejects.toMatchObject({
          code: notFoundCode(era),
          data: { uri },
        });
      }
      c.check();
    });
  }
});

describe('everything prompts and completions', () => {
  for (const era of ERAS) {
    it(`gets every prompt (${era})`, async () => {
      const c = await connected(era);
      const { prompts } = await c.send('prompts/list');
      expect(prompts.map((p: { name: string }) => p.name)).toEqual([
        'simple-prompt',
        'args-prompt',
        'resource-prompt',
      ]);
      expect(prompts[1].arguments).toEqual([
        expect.objectContaining({ name: 'city', required: true }),
        expect.objectContaining({ name: 'state' }),
      ]);
      await expect(c.send('prompts/get', { name: 'simple-prompt' })).resolves.toMatchObject({
        messages: [{ role: 'user', content: { type: 'text', text: expect.any(String) } }],
      });
      const args = await c.send('prompts/get', {
        name: 'args-prompt',
        arguments: { city: 'Springfield', state: 'MO' },
      });
      expect(args.messages[0].content.text).toBe("What's the weather in Springfield, MO?");
      const cityOnly = await c.send('prompts/get', {
        name: 'args-prompt',
        arguments: { city: 'Boston' },
      });
      expect(cityOnly.messages[0].content.text).toBe("What's the weather in Boston?");
      await expect(
        c.send('prompts/get', { name: 'args-prompt', arguments: { state: 'MO' } }),
      ).rejects.toMatchObject({ code: -32602, message: /city/ });
      const embedded = await c.send('prompts/get', {
        name: 'resource-prompt',
        arguments: { resourceType: 'text', resourceId: '9' },
      });
      expect(embedded.messages[1]).toEqual({
        role: 'user',
        content: {
          type: 'resource',
          resource: {
            uri: 'demo://resource/dynamic/text/9',
            mimeType: 'text/plain',
            text: 'Dynamic text resource 9, revision 1.',
          },
        },
      });
      await expect(
        c.send('prompts/get', {
          name: 'resource-prompt',
          arguments: { resourceType: 'video', resourceId: '9' },
        }),
      ).rejects.toMatchObject({ code: -32602 });
      c.check();
    });

    it(`completes prompt arguments and template variables (${era})`, async () => {
      const c = await connected(era);
      const complete = async (ref: object, name: string, value: string, context?: object) =>
        (
          await c.send('completion/complete', {
            ref,
            argument: { name, value },
            ...(context === undefined ? {} : { context: { arguments: context } }),
          })
        ).completion.values;
      const args = { type: 'ref/prompt', name: 'args-prompt' };
      expect(await complete(args, 'city', 'S')).toEqual(['Seattle', 'Springfield']);
      expect(await complete(args, 'state', '', { city: 'Portland' })).toEqual(['OR', 'ME']);
      expect(await complete(args, 'state', 'M')).toEqual(['MA', 'ME', 'MO']);
      const resource = { type: 'ref/prompt', name: 'resource-prompt' };
      expect(await complete(resource, 'resourceType', 'b')).toEqual(['blob']);
      const template = { type: 'ref/resource', uri: 'demo://resource/dynamic/text/{id}' };
      expect(await complete(template, 'id', '10')).toEqual(['10', '100']);
      c.check();
    });
  }
});
