// The load generator, run in a process of its own: autocannon against one URL, one POST body.
// Reads its job from argv[2] (JSON) and prints one JSON line of figures.
import process from 'node:process';
import autocannon from 'autocannon';

const job = JSON.parse(process.argv[2]);
// job.uniqueIds: every request carries an id of its own (the body's `"id":1` replaced by a
// count), as run.mjs's wrk script does for the same rows.
const at = job.body.indexOf('"id":1,');
let next = 0;
const requests = job.uniqueIds
  ? [
      {
        setupRequest: (request) => ({
          ...request,
          body: `${job.body.slice(0, at + 5)}${String(++next)}${job.body.slice(at + 6)}`,
        }),
      },
    ]
  : undefined;
const result = await autocannon({
  url: job.url,
  method: 'POST',
  headers: job.headers,
  body: job.body,
  ...(requests === undefined ? {} : { requests }),
  connections: job.connections,
  duration: job.duration,
  pipelining: 1,
  timeout: 10,
});
const elapsed = result.duration; // seconds
process.stdout.write(
  `${JSON.stringify({
    rps: result.requests.total / elapsed,
    total: result.requests.total,
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
  })}\n`,
);
