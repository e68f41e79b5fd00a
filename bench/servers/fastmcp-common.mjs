// The fastmcp server definition shared by its HTTP and stdio servers.
import { FastMCP } from 'fastmcp';
import { z } from 'zod';
import { answer, wideToolNames, zodShapes } from './common.mjs';

const shapes = zodShapes(z);

export function buildFastmcp() {
  const server = new FastMCP({ name: 'bench-fastmcp', version: '1.0.0' });
  server.addTool({
    name: 'echo',
    parameters: z.object(shapes.echo),
    execute: (args) => Promise.resolve(answer.echo(args)),
  });
  server.addTool({
    name: 'add',
    parameters: z.object(shapes.add),
    execute: (args) => Promise.resolve(answer.add(args)),
  });
  for (const name of wideToolNames()) {
    server.addTool({
      name,
      parameters: z.object(shapes.wide),
      execute: (args) => Promise.resolve(answer.wide(args)),
    });
  }
  return server;
}
