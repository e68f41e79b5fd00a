import Ajv from 'ajv';
import Ajv2020 from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { formatIssues } from '../protocol/json-schema/index.js';
import { McpServer } from '../server/index.js';
import { connectWire } from '../../test/helpers/wire.js';
import { createAjvValidator } from './ajv.js';

const validator = createAjvValidator({
  draft2020: new Ajv2020.default({ allErrors: true, verbose: true, strict: false }),
  draft07: new Ajv.default({ allErrors: true, verbose: true, strict: false }),
});

describe('createAjvValidator', () => {
  it('validates 2020-12 and draft-07 schemas with model-readable issues', () => {
    const schema = { type: 'object', properties: { a: { type: 'number' } }, required: ['a', 'b'] };
    const validate = validator.compile(schema);
    expect(validate({ a: 1, b: 2 })).toEqual({ valid: true, issues: [] });
    const result = validate({ a: 'oops' });
    expect(result.valid).toBe(false);
    expect(formatIssues(result.issues)).toMatch(/a: expected number, received string "oops"/);
    expect(formatIssues(result.issues)).toMatch(/missing required property "b"/);
    const draft07 = validator.compile({
      $schema: 'http://json-schema.org/draft-07/schema#',
      type: 'array',
      items: [{ type: 'string' }],
    });
    expect(draft07(['x']).valid).toBe(true);
    expect(draft07([1]).valid).toBe(false);
  });

  it('plugs into McpServer', async () => {
    const server = new McpServer({ name: 'ajv', version: '1' }, { validator });
    server.tool(
      {
        name: 'sum',
        description: 'd',
        inputSchema: { type: 'object', properties: { a: { type: 'number' } }, required: ['a'] },
      },
      (args) => String(args['a']),
    );
    const w = await connectWire(server);
    await w.initialize();
    await expect(
      w.request('tools/call', { name: 'sum', arguments: { a: 2 } }),
    ).resolves.toMatchObject({ content: [{ text: '2' }] });
    const bad = await w.request('tools/call', { name: 'sum', arguments: { a: 'x' } });
    expect(bad.isError).toBe(true);
    expect(bad.content[0].text).toMatch(/a: expected number/);
    await w.close();
  });
});
