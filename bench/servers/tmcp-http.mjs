// tmcp with @tmcp/transport-http (sessions for legacy clients), on node:http through
// @remix-run/node-fetch-server, as tmcp's README shows.
import { createServer } from 'node:http';
import { HttpTransport } from '@tmcp/transport-http';
import { createRequestListener } from '@remix-run/node-fetch-server';
import { PORT, ready } from './common.mjs';
import { buildTmcp } from './tmcp-common.mjs';

const transport = new HttpTransport(buildTmcp(), { path: '/mcp' });
const server = createServer(
  createRequestListener(async (request) => {
    const response = await transport.respond(request);
    return response ?? new Response(null, { status: 404 });
  }),
);
server.listen(PORT, '127.0.0.1', () => {
  ready(server.address().port);
});
