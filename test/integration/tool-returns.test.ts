// What a tool handler may return, checked twice: by the compiler (each wrong shape below is a
// type error, which `npm run typecheck` proves through @ts-expect-error) and at run time (the
// same shapes, forced past the compiler, never reach the wire: onError hears about them and the
// client gets -32603). Also: the official SDK's call forms fail with the mcpkit form.
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { JsonRpcError } from '../../src/jsonrpc/errors.js';
import { McpServer } from '../../src/server/index.js';
import { closeClients, connectClient, ERAS } from '../helpers/client-pair.js';

afterEach(closeClients);

const WEATHER = z.strictObject({ temperature: z.number(), sky: z.enum(['sunny', 'rain']) });

/** Registrations that must compile: every documented form. */
function validForms(server: McpServer): void {
  server.tool({ name: 'text' }, () => 'plain text');
  server.tool({ name: 'full' }, () => ({ content: [{ type: 'text', text: 'hi' }] }));
  server.tool({ name: 'full-async' }, () => ({
    content: [
      { type: 'image', data: 'AAAA', mimeType: 'image/png' },
      { type: 'resource_link', uri: 'file:///a.txt', name: 'a.txt' },
      { type: 'resource', resource: { uri: 'file:///b.txt', text: 'b' } },
    ],
  }));
  server.tool({ name: 'failed' }, () => ({
    content: [{ type: 'text', text: 'no such city' }],
    isError: true,
  }));
  server.tool({ name: 'data', outputSchema: WEATHER }, () => ({ temperature: 20, sky: 'sunny' }));
  server.tool({ name: 'data-result', outputSchema: WEATHER }, () => ({
    structuredContent: { temperature: 20, sky: 'rain' },
  }));
  server.tool({ name: 'data-failed', outputSchema: WEATHER }, () => ({
    content: [{ type: 'text', text: 'the station is down' }],
    isError: true,
  }));
  server.tool(
    { name: 'json-data', outputSchema: { type: 'object', properties: { n: { type: 'number' } } } },
    () => ({ n: 1 }),
  );
}

/** Registrations that must not compile; `force` registers them anyway for the run-time checks. */
function wrongForms(server: McpServer): string[] {
  // @ts-expect-error a misspelled field is not a result
  server.tool({ name: 'misspelled' }, () => ({ contnet: [{ type: 'text', text: 'hi' }] }));
  // @ts-expect-error a plain object needs an outputSchema
  server.tool({ name: 'plain-object' }, () => ({ temperature: 20 }));
  // @ts-expect-error an unknown content type
  server.tool({ name: 'bad-type' }, () => ({ content: [{ type: 'txt', text: 'hi' }] }));
  // @ts-expect-error a text block needs text
  server.tool({ name: 'no-text' }, () => ({ content: [{ type: 'text' }] }));
  // @ts-expect-error structuredContent needs an outputSchema (the wire allows it: served as is)
  server.tool({ name: 'stray-structured' }, () => ({ content: [], structuredContent: { a: 1 } }));
  // @ts-expect-error with an outputSchema, text alone carries no structured content
  server.tool({ name: 'text-for-data', outputSchema: WEATHER }, () => 'sunny');
  // @ts-expect-error a number is not a result
  server.tool({ name: 'number' }, () => 42);
  return ['misspelled', 'plain-object', 'bad-type', 'no-text', 'text-for-data', 'number'];
}

describe('tool returns', () => {
  it('the documented forms compile and are served', async () => {
    const server = new McpServer({ name: 'returns', version: '1.0.0' }, { onError: () => {} });
    validForms(server);
    const { client } = await connectClient(server);
    expect(await client.callTool('text', {})).toMatchObject({
      content: [{ type: 'text', text: 'plain text' }],
    });
    expect(await client.callTool('data', {})).toMatchObject({
      structuredContent: { temperature: 20, sky: 'sunny' },
      content: [{ type: 'text', text: '{"temperature":20,"sky":"sunny"}' }],
    });
    expect(await client.callTool('failed', {})).toMatchObject({ isError: true });
    expect((await client.callTool('full-async', {})).content).toHaveLength(3);
  });

  for (const [era, revision] of ERAS) {
    it(`a malformed result never reaches the wire (${era}): -32603, cause reported`, async () => {
      const reported: string[] = [];
      const server = new McpServer(
        { name: 'returns', version: '1.0.0' },
        { onError: (error) => reported.push(String(error)) },
      );
      const names = wrongForms(server);
      const { client } = await connectClient(server, { mode: { pin: revision } });
      for (const name of names) {
        const error = await client.callTool(name, {}).then(
          (result) => result,
          (thrown: unknown) => thrown,
        );
        expect(error, name).toBeInstanceOf(JsonRpcError);
        expect((error as JsonRpcError).code, name).toBe(-32603);
      }
      expect(reported.length).toBe(names.length);
      expect(reported.join('\n')).toContain('unknown field "contnet"');
      expect(reported.join('\n')).toContain('unknown content type "txt"');
      expect(reported.join('\n')).toContain('a text block needs a string "text"');
    });
  }

  it("the official SDK's call forms fail with the mcpkit form", () => {
    const server = new McpServer({ name: 'habits', version: '1.0.0' });
    const loose = server as unknown as Record<string, (...args: unknown[]) => unknown>;
    const mcpkitForm =
      /server\.tool\(\{ name: "add", description: '…', inputSchema: z\.strictObject/;
    expect(() => loose['tool']?.('add', { a: z.number() }, () => 'x')).toThrow(mcpkitForm);
    expect(() => loose['tool']?.('add', 'Adds.', { a: z.number() }, () => 'x')).toThrow(mcpkitForm);
    expect(() => loose['registerTool']?.('add', {}, () => 'x')).toThrow(
      /mcpkit has no registerTool: write server\.tool\(\{ name: "add"/,
    );
    expect(() => loose['resource']?.('readme', 'notes://readme', () => 'x')).toThrow(
      /server\.resource\(\{ uri: 'notes:\/\/readme', name: "readme" \}, handler\)/,
    );
    expect(() => loose['prompt']?.('review', { code: z.string() }, () => 'x')).toThrow(
      /server\.prompt\(\{ name: "review", argsSchema/,
    );
    expect(() => loose['registerResource']?.('readme', 'notes://readme', {}, () => 'x')).toThrow(
      /mcpkit has no registerResource/,
    );
    expect(() => loose['registerPrompt']?.('review', {}, () => 'x')).toThrow(
      /mcpkit has no registerPrompt/,
    );
    expect(() =>
      server.tool(
        // A raw shape type-checks as JSON Schema (a record); registration refuses it.
        { name: 'add', inputSchema: { a: z.number(), b: z.number() } },
        () => 'x',
      ),
    ).toThrow(/"a" is a schema, so this looks like a raw shape; pass one schema object instead/);
  });

  it('a prompt message that is not one never reaches the wire', async () => {
    const reported: string[] = [];
    const server = new McpServer(
      { name: 'prompts', version: '1.0.0' },
      { onError: (error) => reported.push(String(error)) },
    );
    const bad = [{ role: 'user', content: { type: 'txt', text: 'hi' } }];
    server.prompt({ name: 'bad' }, () => bad as never);
    const { client } = await connectClient(server);
    const error: unknown = await client.getPrompt('bad', {}).catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(JsonRpcError);
    expect((error as JsonRpcError).code).toBe(-32603);
    expect(reported.join('\n')).toContain('invalid message 0: unknown content type "txt"');
  });
});
