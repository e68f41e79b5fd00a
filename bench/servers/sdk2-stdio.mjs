// The official SDK v2 over stdio: serveStdio from @modelcontextprotocol/server/stdio.
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { ready } from './common.mjs';
import { buildSdk2 } from './sdk2-common.mjs';

serveStdio(buildSdk2);
ready(0);
