// The official SDK v1 over stdio: one McpServer on a StdioServerTransport.
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { ready } from './common.mjs';
import { buildSdk1 } from './sdk1-common.mjs';

await buildSdk1().connect(new StdioServerTransport());
ready(0);
