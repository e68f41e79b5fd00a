// A probe, not part of `npm run bench`: the OpenTelemetry SDK's own floor, in machine
// instructions (callgrind), per operation, without mcpkit: what any middleware that makes one
// SERVER span per request, as mcpkit/otel does, must pay with the SDK of bench/otel-probe.mjs
// registered (bench/RESULTS.md, "OpenTelemetry"). Each PART runs N and 3N times after the same
// start and warm-up; the figure is the difference per iteration, less the empty loop's.
//
//   node bench/otel-floor.mjs [--calls N] [PART ...]
//
// PART (default all of them):
//   span       tracer.startSpan (SERVER, the 7 attributes mcpkit/otel sets on the probe's
//              2026-07-28 tools/call, a parent context) and span.end(), through the
//              SimpleSpanProcessor to the dropping exporter;
//   batched    the same span through a BatchSpanProcessor (its defaults: batches of 512, every 5 s)
//              to the same exporter, the processor the NodeSDK puts in front of an OTLP exporter;
//   extract    the W3C propagators' extract from the probe's `params._meta` (no traceparent);
//   with       context.with(a context holding a span, an async function awaiting once): the
//              AsyncLocalStorage run;
//   histogram  one histogram.record with the 6 attributes mcpkit/otel records for that call;
//   together   extract, startSpan, setSpan, context.with, end and record: the least a SERVER span
//              per request costs with this SDK.
import { spawnSync } from 'node:child_process';
import process from 'node:process';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { registerSdk } from './otel-probe.mjs';

const PARTS = ['span', 'batched', 'extract', 'with', 'histogram', 'together'];
const SELF = fileURLToPath(import.meta.url);
const WARM = 5000;

const { values: flags, positionals } = parseArgs({
  allowPositionals: true,
  options: { calls: { type: 'string', default: '10000' }, run: { type: 'string' } },
});

if (flags.run !== undefined) await run(flags.run, Number(positionals[0]));
else count(positionals.length > 0 ? positionals : PARTS, Number(flags.calls));

/** Counts each part (and the empty loop) under callgrind and prints instructions per iteration. */
function count(parts, n) {
  const per = (part) => (instructions(part, 3 * n) - instructions(part, n)) / (2 * n);
  const empty = per('loop');
  console.log(`loop         ${format(empty)} instructions/iteration (subtracted below)`);
  for (const part of parts) {
    console.log(`${part.padEnd(12)} ${format(per(part) - empty)} instructions/iteration`);
  }
}

function format(value) {
  return Math.round(value).toLocaleString('en-US').padStart(8);
}

function instructions(part, n) {
  const args = ['--tool=callgrind', '--callgrind-out-file=/dev/null', process.execPath];
  args.push('--single-threaded', SELF, '--run', part, String(n));
  const child = spawnSync('valgrind', args, { encoding: 'utf8' });
  if (child.error !== undefined) throw new Error(`valgrind: ${child.error.message}`);
  const refs = /I\s+refs:\s+([\d,]+)/.exec(child.stderr);
  if (refs === null) throw new Error(`no count from callgrind:\n${child.stderr.slice(-2000)}`);
  return Number(refs[1].replaceAll(',', ''));
}

/** Runs `part` WARM + n times, each iteration awaited. */
async function run(part, n) {
  const api = await registerSdk();
  const once = iteration(api, part, await batchedTracer());
  for (let i = 0; i < WARM + n; i++) await once();
}

/** A tracer whose spans go through a BatchSpanProcessor to an exporter that drops them. */
async function batchedTracer() {
  const { BasicTracerProvider, BatchSpanProcessor } = await import('@opentelemetry/sdk-trace-base');
  const exporter = {
    export: (_spans, done) => done({ code: 0 }),
    shutdown: () => Promise.resolve(),
  };
  const provider = new BasicTracerProvider({ spanProcessors: [new BatchSpanProcessor(exporter)] });
  return provider.getTracer('mcpkit');
}

/** One iteration of `part`: a function returning a promise, as a request's middleware does. */
function iteration(api, part, batched) {
  const tracer = api.trace.getTracer('mcpkit');
  const histogram = api.metrics.getMeter('mcpkit').createHistogram('mcp.server.operation.duration');
  const getter = {
    keys: (carrier) => Object.keys(carrier),
    get: (carrier, key) => (typeof carrier[key] === 'string' ? carrier[key] : undefined),
  };
  const meta = {
    'io.modelcontextprotocol/protocolVersion': '2026-07-28',
    'io.modelcontextprotocol/clientCapabilities': {},
  };
  const metric = {
    'mcp.method.name': 'tools/call',
    'gen_ai.tool.name': 'echo',
    'gen_ai.operation.name': 'execute_tool',
    'mcp.protocol.version': '2026-07-28',
    'network.transport': 'tcp',
    'network.protocol.name': 'http',
  };
  const options = {
    kind: api.SpanKind.SERVER,
    attributes: { ...metric, 'jsonrpc.request.id': '1' },
  };
  const root = api.ROOT_CONTEXT;
  const work = async () => {
    await null;
    return 1;
  };
  const inSpan = api.trace.setSpan(root, tracer.startSpan('warm', options, root));
  switch (part) {
    case 'loop':
      return work;
    case 'span':
      return () => {
        tracer.startSpan('tools/call echo', options, root).end();
        return work();
      };
    case 'batched':
      return () => {
        batched.startSpan('tools/call echo', options, root).end();
        return work();
      };
    case 'extract':
      return () => {
        api.propagation.extract(root, meta, getter);
        return work();
      };
    case 'with':
      return () => api.context.with(inSpan, work);
    case 'histogram':
      return () => {
        histogram.record(0.001, metric);
        return work();
      };
    case 'together':
      return async () => {
        const parent = api.propagation.extract(api.context.active(), meta, getter);
        const span = tracer.startSpan('tools/call echo', options, parent);
        await api.context.with(api.trace.setSpan(parent, span), work);
        span.end();
        histogram.record(0.001, metric);
      };
    default:
      throw new Error(`unknown part ${part}; one of ${PARTS.join(', ')}`);
  }
}
