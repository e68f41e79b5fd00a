// A complete server with a zod schema: the arguments arrive validated and typed.
import { z } from 'zod';
import { McpServer } from '../src/server/index.js';

export const server = new McpServer({ name: 'weather', version: '1.0.0' });

server.tool(
  {
    name: 'get-forecast',
    description: 'Gets the forecast for a city. Use it when the user asks about the weather.',
    inputSchema: z.strictObject({
      city: z.string().min(1),
      days: z.number().int().min(1).max(7).default(1),
    }),
  },
  ({ city, days }) => `Sunny in ${city} for the next ${String(days)} day(s).`,
);
