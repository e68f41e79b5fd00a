// fastmcp over stdio.
import { ready } from './common.mjs';
import { buildFastmcp } from './fastmcp-common.mjs';

await buildFastmcp().start({ transportType: 'stdio' });
ready(0);
