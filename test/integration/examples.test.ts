// The examples in docs/server.md are real files; this runs them in both eras.
import { afterEach, describe, expect, it } from 'vitest';
import { server as elicitation } from '../../examples/elicitation.js';
import { server as jsonSchema } from '../../examples/json-schema-server.js';
import { server as zod } from '../../examples/zod-server.js';
import { MODERN, connectWire, type Wire } from '../helpers/wire.js';

const wires: Wire[] = [];
afterEach(async () => {
  await Promise.all(wires.splice(0).map((w) => w.close()));
});

describe('examples', () => {
  it('zod: validates, applies defaults and lists the converted schema', async () => {
    const w = await connectWire(zod);
    wires.push(w);
    await w.initialize();
    const list = await w.request('tools/list', {});
    expect(list.tools[0].inputSchema).toMatchObject({
      type: 'object',
      properties: { city: { type: 'string' } },
      additionalProperties: false,
    });
    expect(list.tools[0].inputSchema.$schema).toBeUndefined();
    await expect(
      w.request('tools/call', { name: 'get-forecast', arguments: { city: 'Oslo' } }),
    ).resolves.toEqual({
      content: [{ type: 'text', text: 'Sunny in Oslo for the next 1 day(s).' }],
    });
    const bad = await w.request('tools/call', {
      name: 'get-forecast',
      arguments: { city: 'Oslo', days: 9 },
    });
    expect(bad.isError).toBe(true);
    expect(bad.content[0].text).toMatch(/days/);
    w.assertServerFramesValid('2025-11-25');
  });

  it('raw JSON Schema: the tutorial sum', async () => {
    const w = await connectWire(jsonSchema);
    wires.push(w);
    await expect(
      w.modern('tools/call', { name: 'get-sum', arguments: { a: 1, b: 2 } }),
    ).resolves.toMatchObject({
      content: [{ type: 'text', text: 'The sum of 1 and 2 is 3.' }],
    });
  });

  it('elicitation: the same handler in both eras', async () => {
    const legacy = await connectWire(elicitation, {
      onRequest: () => Promise.resolve({ action: 'accept', content: { guests: 4 } }),
    });
    wires.push(legacy);
    await legacy.initialize('2025-11-25', { elicitation: {} });
    await expect(
      legacy.request('tools/call', { name: 'book-table', arguments: { restaurant: 'Noma' } }),
    ).resolves.toEqual({
      content: [{ type: 'text', text: 'Booked Noma for 4.' }],
    });
    const modern = await connectWire(elicitation);
    wires.push(modern);
    const caps = { capabilities: { elicitation: {} } };
    const first = await modern.modern(
      'tools/call',
      { name: 'book-table', arguments: { restaurant: 'Noma' } },
      caps,
    );
    expect(first.resultType).toBe('input_required');
    const done = await modern.modern(
      'tools/call',
      {
        name: 'book-table',
        arguments: { restaurant: 'Noma' },
        requestState: first.requestState,
        inputResponses: { 'input-0': { action: 'accept', content: { guests: 4 } } },
      },
      caps,
    );
    expect(done).toMatchObject({
      resultType: 'complete',
      content: [{ text: 'Booked Noma for 4.' }],
    });
    modern.assertServerFramesValid(MODERN);
  });
});
