// fastmcp's httpStream transport with sessions (its default), JSON answers.
import { PORT, ready } from './common.mjs';
import { buildFastmcp } from './fastmcp-common.mjs';

const server = buildFastmcp();
await server.start({
  transportType: 'httpStream',
  httpStream: { port: PORT, host: '127.0.0.1', enableJsonResponse: true },
});
ready(PORT);
