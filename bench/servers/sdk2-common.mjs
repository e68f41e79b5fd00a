// The official SDK v2 server definition shared by its HTTP and stdio servers.
import { McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { answer, wideToolNames, zodShapes } from './common.mjs';

const shapes = zodShapes(z);
const text = (value) => ({ content: [{ type: 'text', text: value }] });

export function buildSdk2() {
  const server = new McpServer({ name: 'bench-sdk2', version: '1.0.0' });
  server.registerTool('echo', { inputSchema: z.object(shapes.echo) }, (args) =>
    text(answer.echo(args)),
  );
  server.registerTool('add', { inputSchema: z.object(shapes.add) }, (args) =>
    text(answer.add(args)),
  );
  for (const name of wideToolNames()) {
    server.registerTool(name, { inputSchema: z.object(shapes.wide) }, (args) =>
      text(answer.wide(args)),
    );
  }
  return server;
}
