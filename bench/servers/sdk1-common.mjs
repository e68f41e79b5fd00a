// The official SDK v1 server definition shared by its stateless and stateful servers.
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

/** Reads and parses a JSON body (what express.json() does in the SDK's examples). */
export function readJson(req) {
  return new Promise((resolve, reject) => {
    const chunks = [];
    req.on('data', (chunk) => chunks.push(chunk));
    req.on('end', () => {
      try {
        resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')));
      } catch (error) {
        reject(error);
      }
    });
    req.on('error', reject);
  });
}
