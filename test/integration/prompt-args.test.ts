// Prompt arguments from one schema (`argsSchema`): listed as the spec's `arguments`, checked on
// every prompts/get in both eras, typed for the handler, and completed by `complete`.
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { JsonRpcError } from '../../src/jsonrpc/errors.js';
import { McpServer } from '../../src/server/index.js';
import { closeClients, connectClient, ERAS } from '../helpers/client-pair.js';

afterEach(closeClients);

const CITIES = ['Paris', 'Palermo', 'Oslo'];

function tripServer(): McpServer {
  const server = new McpServer({ name: 'trips', version: '1.0.0' });
  server.prompt(
    {
      name: 'plan-trip',
      description: 'Plans a trip.',
      argsSchema: z.strictObject({
        city: z.string().min(1).describe('Where to go.'),
        style: z.enum(['slow', 'fast']).default('slow').describe('How to travel.'),
      }),
      complete: { city: (value) => CITIES.filter((c) => c.startsWith(value)) },
    },
    // `city` is a string and `style` 'slow' | 'fast': typed by the schema.
    ({ city, style }) =>
      `Plan a ${style === 'slow' ? 'slow' : 'fast'} trip to ${city.toUpperCase()}.`,
  );
  return server;
}

describe('prompt arguments from a schema', () => {
  for (const [era, revision] of ERAS) {
    it(`lists, checks, types and completes them (${era})`, async () => {
      const { client } = await connectClient(tripServer(), { mode: { pin: revision } });
      const [prompt] = await client.listPrompts();
      expect(prompt?.arguments).toEqual([
        { name: 'city', description: 'Where to go.', required: true },
        { name: 'style', description: 'How to travel.' },
      ]);
      const got = await client.getPrompt('plan-trip', { city: 'Oslo' });
      expect(got.messages[0]?.content).toEqual({ type: 'text', text: 'Plan a slow trip to OSLO.' });
      const bad: unknown = await client
        .getPrompt('plan-trip', { style: 'fast' })
        .catch((error: unknown) => error);
      expect(bad).toBeInstanceOf(JsonRpcError);
      expect((bad as JsonRpcError).code).toBe(-32602);
      expect((bad as JsonRpcError).message).toContain('invalid arguments for prompt "plan-trip"');
      expect((bad as JsonRpcError).message).toContain('city');
      const completed = await client.complete(
        { type: 'ref/prompt', name: 'plan-trip' },
        { name: 'city', value: 'Pa' },
      );
      expect(completed.completion.values).toEqual(['Paris', 'Palermo']);
    });
  }

  it('refuses a schema whose arguments are not strings, or both forms at once', () => {
    const server = new McpServer({ name: 'bad', version: '1.0.0' });
    expect(() =>
      server.prompt({ name: 'n', argsSchema: z.object({ days: z.number() }) }, () => 'x'),
    ).toThrow('prompt "n" argsSchema: "days" must be a string');
    expect(() =>
      server.prompt(
        { name: 'both', arguments: [{ name: 'a' }], argsSchema: z.object({ a: z.string() }) },
        () => 'x',
      ),
    ).toThrow('give arguments or argsSchema, not both');
  });
});
