// The tmcp server definition shared by its HTTP and stdio servers (zod through its adapter).
import { McpServer } from 'tmcp';
import { ZodJsonSchemaAdapter } from '@tmcp/adapter-zod';
import { z } from 'zod';
import { answer, wideToolNames, zodShapes } from './common.mjs';

const shapes = zodShapes(z);
const text = (value) => ({ content: [{ type: 'text', text: value }] });

export function buildTmcp() {
  const server = new McpServer(
    { name: 'bench-tmcp', version: '1.0.0', description: 'bench' },
    { adapter: new ZodJsonSchemaAdapter(), capabilities: { tools: { listChanged: true } } },
  );
  server.tool({ name: 'echo', description: 'echo', schema: z.object(shapes.echo) }, (args) =>
    text(answer.echo(args)),
  );
  server.tool({ name: 'add', description: 'add', schema: z.object(shapes.add) }, (args) =>
    text(answer.add(args)),
  );
  for (const name of wideToolNames()) {
    server.tool({ name, description: name, schema: z.object(shapes.wide) }, (args) =>
      text(answer.wide(args)),
    );
  }
  return server;
}
