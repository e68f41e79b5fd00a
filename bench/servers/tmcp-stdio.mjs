// tmcp over stdio: @tmcp/transport-stdio.
import { StdioTransport } from '@tmcp/transport-stdio';
import { ready } from './common.mjs';
import { buildTmcp } from './tmcp-common.mjs';

new StdioTransport(buildTmcp()).listen();
ready(0);
