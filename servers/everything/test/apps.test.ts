// everything's MCP Apps: get-sum and get-structured-content link to their views, which are read
// as HTML views whose inline scripts parse, speak the Apps bridge (ui/initialize, then tools/call
// of the linked tool) and load nothing from outside (the restrictive CSP holds).
import { Script } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { ERAS, connect } from './connect.js';

const UI = {
  extensions: { 'io.modelcontextprotocol/ui': { mimeTypes: ['text/html;profile=mcp-app'] } },
};

describe('everything Apps', () => {
  for (const era of ERAS) {
    it(`links two tools to views that read as HTML views (${era})`, async () => {
      const c = await connect(era, { capabilities: UI });
      const { tools } = await c.send('tools/list');
      const linked = Object.fromEntries(
        tools
          .filter((t: { _meta?: { ui?: unknown } }) => t._meta?.ui !== undefined)
          .map((t: { name: string; _meta: { ui: { resourceUri: string } } }) => [
            t.name,
            t._meta.ui.resourceUri,
          ]),
      );
      // A 2024-11-05 tool has no `_meta` (it came in 2025-06-18): no view is linked there.
      if (era === '2024-11-05') {
        expect(linked).toEqual({});
        Object.assign(linked, { 'get-sum': 'ui://everything/sum-form' });
      } else {
        expect(linked).toEqual({
          'get-sum': 'ui://everything/sum-form',
          'get-structured-content': 'ui://everything/weather-chart',
        });
      }
      for (const [tool, uri] of Object.entries(linked)) {
        const { contents } = await c.send('resources/read', { uri });
        expect(contents[0]).toMatchObject({
          uri,
          mimeType: 'text/html;profile=mcp-app',
          _meta: { ui: { prefersBorder: true } },
        });
        const html: string = contents[0].text;
        const scripts = [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((m) => m[1] ?? '');
        expect(scripts).toHaveLength(1);
        expect(() => new Script(scripts[0] ?? '')).not.toThrow();
        expect(html).toContain("'ui/initialize'");
        expect(html).toContain(`name: '${tool}'`);
        expect(html).not.toMatch(/(src|href)=["']?https?:/);
      }
      c.check();
      await c.close();
    });
  }
});
