// Elicitation written once: over a legacy session the question is sent to the client as a
// request; in 2026-07-28 the call returns `input_required`, the client retries with the answer,
// and this handler runs again with the answer replayed. Keep side effects after the question.
import { McpServer } from '../src/server/index.js';

export const server = new McpServer({ name: 'bookings', version: '1.0.0' });

server.tool(
  {
    name: 'book-table',
    description: 'Books a restaurant table. Use it when the user wants a reservation.',
    inputSchema: {
      type: 'object',
      properties: { restaurant: { type: 'string' } },
      required: ['restaurant'],
      additionalProperties: false,
    },
  },
  async (args, ctx) => {
    const { restaurant } = args as { restaurant: string };
    const answer = await ctx.elicit({
      mode: 'form',
      message: `How many guests for ${restaurant}?`,
      requestedSchema: {
        type: 'object',
        properties: { guests: { type: 'integer', minimum: 1, maximum: 12 } },
        required: ['guests'],
      },
    });
    if (answer.action !== 'accept') return 'No booking made.';
    // Side effects go here, after every question has been answered.
    return `Booked ${restaurant} for ${String(answer.content?.['guests'])}.`;
  },
);
