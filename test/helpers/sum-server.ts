// The server every tutorial builds, for the walk-through tests and transcripts.
import { McpServer } from '../../src/server/server.js';

/** The sum server; `answer` words its reply (a variant for tests that need a changed server). */
export function createSumServer(
  options: ConstructorParameters<typeof McpServer>[1] = {},
  answer: (a: number, b: number) => string = (a, b) => `The sum of ${a} and ${b} is ${a + b}.`,
): McpServer {
  const server = new McpServer({ name: 'sum-server', version: '1.0.0' }, options);
  server.tool(
    {
      name: 'get-sum',
      description: 'Adds two numbers. Use it for arithmetic.',
      inputSchema: {
        type: 'object',
        properties: { a: { type: 'number' }, b: { type: 'number' } },
        required: ['a', 'b'],
        additionalProperties: false,
      },
    },
    (args) => {
      const { a, b } = args as { a: number; b: number };
      return answer(a, b);
    },
  );
  return server;
}
