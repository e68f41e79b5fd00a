// The same kind of server with raw JSON Schema: no schema library at all.
import { McpServer } from '../src/server/index.js';

export const server = new McpServer({ name: 'calculator', version: '1.0.0' });

server.tool(
  {
    name: 'get-sum',
    description: 'Adds two numbers. Use it for any sum the user asks for.',
    inputSchema: {
      type: 'object',
      properties: { a: { type: 'number' }, b: { type: 'number' } },
      required: ['a', 'b'],
      additionalProperties: false,
    },
  },
  (args) => {
    const { a, b } = args as { a: number; b: number };
    return `The sum of ${String(a)} and ${String(b)} is ${String(a + b)}.`;
  },
);
