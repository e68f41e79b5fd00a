// Lets the conformance CLI run on Node 20 (`node --import ./conformance/node20.mjs <cli>`).
// Its bundle imports `globSync` from `fs` (Node 22) at load time, only to gather results in its
// `tier-check` and `sdk` commands, which we never run. A Node 22 binary from npm would put a
// `node` into node_modules/.bin, and every npm script would then run on Node 22.
import { register } from 'node:module';

register('./node20-hooks.mjs', import.meta.url);
