// What every server under test shares: the tool set, the port, the ready line and the GC hook,
// and the reading of a JSON body and of lines.
//
// Every server registers the same two tools, `echo` {message: string} and `add` {a, b: number},
// each answering one text block. With BENCH_TOOLS=50 it also registers 50 tools whose input is a
// 10-field object (the scaling case). mcpkit takes raw JSON Schema (its zero-dependency path);
// the peers take zod, the way their documentation shows.
import { connect } from 'node:net';
import process from 'node:process';

/** How many extra wide tools to register (BENCH_TOOLS, default 0). */
export const EXTRA_TOOLS = Number(process.env.BENCH_TOOLS ?? '0');

/** The port to listen on (PORT); the orchestrator picks a free one. */
export const PORT = Number(process.env.PORT ?? '0');

/** The names of the extra tools. */
export function wideToolNames() {
  return Array.from({ length: EXTRA_TOOLS }, (_, i) => `wide_${String(i).padStart(2, '0')}`);
}

/** echo's JSON Schema. */
export const ECHO_SCHEMA = {
  type: 'object',
  properties: { message: { type: 'string' } },
  required: ['message'],
};

/** add's JSON Schema. */
export const ADD_SCHEMA = {
  type: 'object',
  properties: { a: { type: 'number' }, b: { type: 'number' } },
  required: ['a', 'b'],
};

/** The 10-field object every wide tool takes. */
export const WIDE_SCHEMA = {
  type: 'object',
  properties: {
    id: { type: 'string' },
    name: { type: 'string', minLength: 1 },
    count: { type: 'integer', minimum: 0 },
    ratio: { type: 'number' },
    enabled: { type: 'boolean' },
    tags: { type: 'array', items: { type: 'string' } },
    mode: { type: 'string', enum: ['fast', 'safe', 'off'] },
    note: { type: 'string', maxLength: 200 },
    limit: { type: 'integer', maximum: 1000 },
    owner: {
      type: 'object',
      properties: { id: { type: 'string' }, email: { type: 'string' } },
      required: ['id'],
    },
  },
  required: ['id', 'name', 'count'],
};

/** The zod shapes of the same three inputs, for the peers. */
export function zodShapes(z) {
  return {
    echo: { message: z.string() },
    add: { a: z.number(), b: z.number() },
    wide: {
      id: z.string(),
      name: z.string().min(1),
      count: z.number().int().min(0),
      ratio: z.number().optional(),
      enabled: z.boolean().optional(),
      tags: z.array(z.string()).optional(),
      mode: z.enum(['fast', 'safe', 'off']).optional(),
      note: z.string().max(200).optional(),
      limit: z.number().int().max(1000).optional(),
      owner: z.object({ id: z.string(), email: z.string().optional() }).optional(),
    },
  };
}

/** The text each tool answers. */
export const answer = {
  echo: (args) => String(args.message),
  add: (args) => String(args.a + args.b),
  wide: (args) => `ok ${String(args.id)}`,
};

/**
 * Tells the orchestrator that the server is up (one `READY <port>` line on stderr, so that stdio
 * servers keep stdout for messages), and lets it force a collection (SIGUSR2, with --expose-gc)
 * before reading the RSS or counting (a `COLLECTED` line on stderr once done).
 */
export function ready(port) {
  process.on('SIGUSR2', () => {
    globalThis.gc?.();
    process.stderr.write('COLLECTED\n');
  });
  process.stderr.write(`READY ${String(port)}\n`);
}

/**
 * Reads a request's body and calls `then` with it parsed as JSON; a body that is not JSON is
 * answered 400. No copy when the body came in one chunk (the common case), as the raw ceilings
 * need.
 */
export function onJsonBody(req, res, then) {
  const chunks = [];
  req.on('data', (chunk) => chunks.push(chunk));
  req.on('end', () => {
    let message;
    try {
      message = JSON.parse(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks));
    } catch {
      res.writeHead(400).end();
      return;
    }
    then(message);
  });
}

/** Calls `onLine` with each line `stream` sends (UTF-8, without its `\n`), in order. */
export function onLines(stream, onLine) {
  let buffered = '';
  stream.setEncoding('utf8');
  stream.on('data', (chunk) => {
    buffered += chunk;
    let end;
    while ((end = buffered.indexOf('\n')) !== -1) {
      const line = buffered.slice(0, end);
      buffered = buffered.slice(end + 1);
      onLine(line);
    }
  });
}

// Under `node --cpu-prof`, SIGINT must end the process normally for the profile to be written.
if (process.execArgv.some((arg) => arg.startsWith('--cpu-prof'))) {
  process.on('SIGINT', () => {
    process.exit(0);
  });
}

/**
 * With MCPKIT_PROBE_MIDDLEWARE=1, registers one pass-through request middleware and one
 * pass-through tool-call middleware on an mcpkit server (what bench/RESULTS.md "Seams:
 * middleware" counts); with MCPKIT_PROBE_MIDDLEWARE=async, the same as `async` functions that
 * await next(); otherwise none.
 */
export function probeMiddleware(server) {
  const kind = process.env.MCPKIT_PROBE_MIDDLEWARE;
  if (kind === '1') {
    server.use((ctx, next) => next());
    server.use({ toolCall: (call, next) => next() });
  } else if (kind === 'async') {
    server.use(async (ctx, next) => await next());
    server.use({ toolCall: async (call, next) => await next() });
  }
}

/**
 * The stdio upstream of the peer-gateway rows (issue #40): mcpkit-stdio.mjs, the same server
 * for every gateway, run as `sh -c 'exec node mcpkit-stdio.mjs 2>/dev/null'`: `exec` leaves one
 * node process, and its stderr (its `READY 0` line) reaches nobody, so that a gateway that
 * passes its child's stderr through does not announce port 0 to the orchestrator.
 * `line` is that command as one shell line, for the gateways that take one.
 */
export function stdioUpstream() {
  const file = new URL('./mcpkit-stdio.mjs', import.meta.url).pathname;
  const line = `exec '${process.execPath}' '${file}' 2>/dev/null`;
  return { command: 'sh', args: ['-c', line], line };
}

/** Resolves once 127.0.0.1:`port` takes a connection (for a CLI that says nothing when it listens). */
export async function listening(port) {
  for (;;) {
    const up = await new Promise((resolve) => {
      const socket = connect(port, '127.0.0.1');
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (up) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
