// The official SDK v1 server definition shared by its stateless, stateful and stdio servers.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { answer, wideToolNames, zodShapes } from './common.mjs';

const shapes = zodShapes(z);
const text = (value) => ({ content: [{ type: 'text', text: value }] });

export function buildSdk1() {
  const server = new McpServer({ name: 'bench-sdk1', version: '1.0.0' });
  server.registerTool('echo', { inputSchema: shapes.echo }, (args) => text(answer.echo(args)));
  server.registerTool('add', { inputSchema: shapes.add }, (args) => text(answer.add(args)));
  for (const name of wideToolNames()) {
    server.registerTool(name, { inputSchema: shapes.wide }, (args) => text(answer.wide(args)));
  }
  return server;
}
