// Content written once in the newest shapes reaches every revision valid: a revision without
// `audio` or `resource_link` blocks gets text blocks that say what they were. Every server frame
// is validated against the official schema of the revision in use.
import { afterEach, describe, expect, it } from 'vitest';
import { McpServer } from '../../src/server/index.js';
import type { ProtocolRevision } from '../../src/protocol/version.js';
import { MODERN, connectWire, type Wire } from '../helpers/wire.js';

const wires: Wire[] = [];
afterEach(async () => {
  await Promise.all(wires.splice(0).map((w) => w.close()));
});

const LINK = {
  type: 'resource_link',
  uri: 'file:///notes.txt',
  name: 'notes',
  mimeType: 'text/plain',
  description: 'My notes',
} as const;
const AUDIO = { type: 'audio', data: 'UklGRg==', mimeType: 'audio/wav' } as const;

function mixedServer(): McpServer {
  const server = new McpServer({ name: 'mixed', version: '1.0.0' });
  server.tool({ name: 'mixed', description: 'Returns every block kind.' }, () => ({
    content: [{ type: 'text', text: 'hello' }, LINK, AUDIO],
  }));
  server.prompt({ name: 'linked', description: 'A prompt with a link.' }, () => [
    { role: 'user', content: LINK },
    { role: 'assistant', content: AUDIO },
  ]);
  return server;
}

const LINK_TEXT = { type: 'text', text: 'notes: file:///notes.txt (text/plain) - My notes' };
const AUDIO_TEXT = {
  type: 'text',
  text: '[audio content (audio/wav) left out: protocol revision 2024-11-05 cannot carry it]',
};

const CASES: [ProtocolRevision, unknown[]][] = [
  ['2024-11-05', [{ type: 'text', text: 'hello' }, LINK_TEXT, AUDIO_TEXT]],
  ['2025-03-26', [{ type: 'text', text: 'hello' }, LINK_TEXT, AUDIO]],
  ['2025-06-18', [{ type: 'text', text: 'hello' }, LINK, AUDIO]],
  ['2025-11-25', [{ type: 'text', text: 'hello' }, LINK, AUDIO]],
];

describe('content blocks per revision', () => {
  for (const [revision, content] of CASES) {
    it(`tools/call and prompts/get at ${revision}`, async () => {
      const w = await connectWire(mixedServer());
      wires.push(w);
      await w.initialize(revision);
      const result = await w.request('tools/call', { name: 'mixed', arguments: {} });
      expect(result.content).toEqual(content);
      const prompt = await w.request('prompts/get', { name: 'linked' });
      expect(prompt.messages.map((m: { content: unknown }) => m.content)).toEqual(content.slice(1));
      w.assertServerFramesValid(revision);
    });
  }

  it('2026-07-28 gets every block as written', async () => {
    const w = await connectWire(mixedServer());
    wires.push(w);
    const result = await w.modern('tools/call', { name: 'mixed', arguments: {} });
    expect(result.content).toEqual([{ type: 'text', text: 'hello' }, LINK, AUDIO]);
    w.assertServerFramesValid(MODERN);
  });
});
