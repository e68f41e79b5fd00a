// mcpkit over stdio: one McpServer on the stdio server transport.
import { McpServer } from '../../dist/esm/src/server/index.js';
import { createStdioServerTransport } from '../../dist/esm/src/transports/stdio/index.js';
import {
  ADD_SCHEMA,
  ECHO_SCHEMA,
  WIDE_SCHEMA,
  answer,
  probeMiddleware,
  ready,
  wideToolNames,
} from './common.mjs';

const server = new McpServer({ name: 'bench-mcpkit', version: '1.0.0' });
server.tool({ name: 'echo', inputSchema: ECHO_SCHEMA }, answer.echo);
server.tool({ name: 'add', inputSchema: ADD_SCHEMA }, answer.add);
for (const name of wideToolNames()) server.tool({ name, inputSchema: WIDE_SCHEMA }, answer.wide);
probeMiddleware(server);

await server.connect(createStdioServerTransport());
ready(0);
