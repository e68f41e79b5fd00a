// Generators of raw HTTP/1.1 responses for the HTTP client's fuzz and differential tests: well-formed
// ones (content-length, chunked with extensions and trailers, until close, 1xx first), and hostile
// ones made of odd parts (bad sizes, conflicting framing, malformed lines, compressed bodies) and
// then mutated (bytes flipped, inserted, removed, cut short).
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import fc from 'fast-check';

const TOKEN_CHARS = "!#$%&'*+-.^_`|~0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";

/** A field name (token). */
const token = fc
  .array(fc.constantFrom(...TOKEN_CHARS.split('')), { minLength: 1, maxLength: 12 })
  .map((chars) => `x-${chars.join('')}`);

/** A field value: visible ASCII, tabs and spaces inside, obs-text. */
const fieldValue = fc
  .array(
    fc.oneof(
      fc.integer({ min: 0x21, max: 0x7e }),
      fc.constantFrom(0x20, 0x09),
      fc.integer({ min: 0x80, max: 0xff }),
    ),
    { maxLength: 24 },
  )
  .map((codes) => String.fromCharCode(...codes).trim());

const body = fc.oneof(
  fc.string({ maxLength: 64 }).map((s) => Buffer.from(s)),
  fc.uint8Array({ maxLength: 300 }).map((b) => Buffer.from(b)),
);

/** A chunk extension (`;name` or `;name=value`, the value a token or a quoted string). */
function extensionWith(space: fc.Arbitrary<string>): fc.Arbitrary<string> {
  return fc
    .tuple(
      space,
      token,
      fc.option(fc.oneof(token, fc.constant('"q;u\\"o=te"')), { nil: undefined }),
    )
    .map(([before, name, value]) => `${before};${name}${value === undefined ? '' : `=${value}`}`);
}

/** Extensions with no whitespace before the `;`, which llhttp refuses (RFC 9112 allows it). */
const extension = extensionWith(fc.constant(''));
/** Extensions, some with whitespace (BWS) before the `;`. */
const bwsExtension = extensionWith(fc.constantFrom('', ' ', '\t'));

/** `payload` in chunked coding: random chunk sizes (hex of either case), extensions, trailers. */
function chunkedOf(
  payload: Buffer,
  sizes: readonly number[],
  extensions: readonly string[],
  trailers: readonly (readonly [string, string])[],
  upper: boolean,
): Buffer {
  const parts: Buffer[] = [];
  let at = 0;
  let i = 0;
  while (at < payload.length) {
    const size = Math.min(1 + ((sizes[i] ?? payload.length) % 40), payload.length - at);
    const hex = upper ? size.toString(16).toUpperCase() : size.toString(16);
    parts.push(Buffer.from(`${hex}${extensions[i] ?? ''}\r\n`), payload.subarray(at, at + size));
    parts.push(Buffer.from('\r\n'));
    at += size;
    i++;
  }
  const trailer = trailers.map(([name, value]) => `${name}: ${value}\r\n`).join('');
  parts.push(Buffer.from(`0${extensions[i] ?? ''}\r\n${trailer}\r\n`));
  return Buffer.concat(parts);
}

/** A well-formed response to a GET and how its body is framed. */
export interface WellFormed {
  readonly bytes: Buffer;
  /** Whether it ends only when the connection does (no length, not chunked). */
  readonly untilClose: boolean;
}

const status = fc.oneof(
  fc.constantFrom(200, 201, 202, 206, 301, 302, 400, 401, 403, 404, 409, 429, 500, 502, 503),
  fc.integer({ min: 200, max: 599 }).filter((s) => s !== 204 && s !== 205 && s !== 304),
);

/** Well-formed responses to a GET: the framing the generated headers say, exactly. */
export const wellFormed: fc.Arbitrary<WellFormed> = fc
  .record({
    informational: fc.array(fc.constantFrom(100, 102, 103), { maxLength: 2 }),
    version: fc.constantFrom('1.1', '1.1', '1.0'),
    status,
    reason: fc.constantFrom('', 'OK', 'Not Found', 'Whatever it says'),
    fields: fc.uniqueArray(fc.tuple(token, fieldValue), {
      maxLength: 5,
      selector: ([name]) => name.toLowerCase(),
    }),
    framing: fc.constantFrom('length', 'chunked', 'close'),
    payload: body,
    sizes: fc.array(fc.nat(), { maxLength: 12 }),
    extensions: fc.array(fc.oneof(fc.constant(''), extension), { maxLength: 12 }),
    trailers: fc.array(fc.tuple(token, fieldValue), { maxLength: 2 }),
    upper: fc.boolean(),
    space: fc.constantFrom('', ' ', '  ', '\t'),
  })
  .map((r): WellFormed => {
    const framing = r.version === '1.0' && r.framing === 'chunked' ? 'length' : r.framing;
    const early = r.informational.map((s) => `HTTP/1.1 ${String(s)} Early\r\n\r\n`).join('');
    let head = `${early}HTTP/${r.version} ${String(r.status)} ${r.reason}\r\n`;
    for (const [name, value] of r.fields) head += `${name}:${r.space}${value}\r\n`;
    let payload: Buffer = r.payload;
    if (framing === 'length') head += `Content-Length: ${String(payload.length)}\r\n`;
    if (framing === 'chunked') {
      head += 'Transfer-Encoding: chunked\r\n';
      payload = chunkedOf(payload, r.sizes, r.extensions, r.trailers, r.upper);
    }
    if (r.version === '1.0' && framing === 'length') head += 'Connection: keep-alive\r\n';
    const bytes = Buffer.concat([Buffer.from(`${head}\r\n`, 'latin1'), payload]);
    return { bytes, untilClose: framing === 'close' };
  });

/** A field line of a hostile response, often about framing, sometimes malformed. */
const hostileField = fc.oneof(
  fc.tuple(token, fieldValue).map(([n, v]) => `${n}: ${v}`),
  fc.nat({ max: 400 }).map((n) => `Content-Length: ${String(n)}`),
  fc.constantFrom(
    'Content-Length: 5',
    'Content-Length: 5, 5',
    'Content-Length: -1',
    'Content-Length: 99999999999999999999',
    'Content-Length: 0x10',
    'Content-Length : 3',
    'Transfer-Encoding: chunked',
    'Transfer-Encoding: gzip, chunked',
    'Transfer-Encoding: chunked, gzip',
    'Transfer-Encoding: identity',
    'Transfer-Encoding: xchunked',
    'Content-Type: text/event-stream',
    'Content-Type: application/json',
    'Content-Encoding: gzip',
    'Content-Encoding: deflate',
    'Content-Encoding: br',
    'Content-Encoding: gzip, gzip',
    'Content-Encoding: zstd',
    'Connection: close',
    'Connection: keep-alive',
    ' folded: line',
    '\tfolded',
    'no colon here',
    ': empty name',
    'bad name: x',
    'x-nul: a\0b',
    'x-cr: a\rb',
    'x-lf: a\nb',
    'x-ctl: a\u0001b',
  ),
);

/** A body part of a hostile response: raw bytes, chunked pieces, bad chunk lines, gzip. */
const hostileBody = fc.oneof(
  body,
  fc
    .tuple(body, fc.array(fc.nat(), { maxLength: 6 }), fc.array(bwsExtension, { maxLength: 6 }))
    .map(([payload, sizes, extensions]) => chunkedOf(payload, sizes, extensions, [], false)),
  fc
    .constantFrom(
      'zz\r\nab\r\n0\r\n\r\n',
      '-1\r\n',
      'ffffffffffffffffffff\r\nab\r\n',
      ' 2\r\nab\r\n0\r\n\r\n',
      '2 \r\nab\r\n0\r\n\r\n',
      '2;\r\nab\r\n0\r\n\r\n',
      '2\nab\r\n0\r\n\r\n',
      '2\r\nabc\r\n0\r\n\r\n',
      '0\r\nx-t: 1\r\nbad trailer\r\n\r\n',
      '0\r\n\r\n',
      '1\r\na\r\n',
    )
    .map((s) => Buffer.from(s, 'latin1')),
  fc.string({ maxLength: 200 }).map((s) => gzipSync(s)),
  fc.nat({ max: 20_000 }).map((n) => gzipSync(Buffer.alloc(n))),
);

/** Responses with a compressed body: a valid one (large once decoded) or bytes that are not. */
const compressed: fc.Arbitrary<Buffer> = fc
  .record({
    coding: fc.constantFrom('gzip', 'deflate', 'br', 'gzip, gzip'),
    decodedBytes: fc.nat({ max: 40_000 }),
    garbage: fc.option(body, { nil: undefined }),
    framing: fc.constantFrom('length', 'chunked', 'close'),
  })
  .map(({ coding, decodedBytes, garbage, framing }) => {
    const plain = Buffer.alloc(decodedBytes, 'a');
    const zip = { gzip: gzipSync, deflate: deflateSync, br: brotliCompressSync }[
      coding === 'gzip, gzip' ? 'gzip' : coding
    ];
    let payload: Buffer =
      garbage ?? (coding === 'gzip, gzip' ? gzipSync(gzipSync(plain)) : zip(plain));
    let head = `HTTP/1.1 200 OK\r\nContent-Encoding: ${coding}\r\n`;
    if (framing === 'length') head += `Content-Length: ${String(payload.length)}\r\n`;
    if (framing === 'chunked') {
      head += 'Transfer-Encoding: chunked\r\n';
      payload = chunkedOf(payload, [payload.length], [], [], false);
    }
    return Buffer.concat([Buffer.from(`${head}\r\n`), payload]);
  });

/** How a response is damaged after it is put together. */
const mutation = fc.oneof(
  fc.record({ kind: fc.constant('flip' as const), at: fc.nat(), byte: fc.nat({ max: 255 }) }),
  fc.record({
    kind: fc.constant('insert' as const),
    at: fc.nat(),
    bytes: fc.constantFrom('\r', '\n', '\r\n', '\0', ' ', ':', ';', '0', 'HTTP/1.1 200 OK\r\n'),
  }),
  fc.record({ kind: fc.constant('delete' as const), at: fc.nat(), length: fc.nat({ max: 8 }) }),
  fc.record({ kind: fc.constant('cut' as const), at: fc.nat() }),
);

type Mutation = typeof mutation extends fc.Arbitrary<infer M> ? M : never;

function mutate(bytes: Buffer, m: Mutation): Buffer {
  if (bytes.length === 0) return bytes;
  const at = m.at % bytes.length;
  switch (m.kind) {
    case 'flip': {
      const out = Buffer.from(bytes);
      out[at] = m.byte;
      return out;
    }
    case 'insert':
      return Buffer.concat([
        bytes.subarray(0, at),
        Buffer.from(m.bytes, 'latin1'),
        bytes.subarray(at),
      ]);
    case 'delete':
      return Buffer.concat([bytes.subarray(0, at), bytes.subarray(at + m.length)]);
    case 'cut':
      return bytes.subarray(0, at);
  }
}

/** Hostile responses: a status line (valid or not), odd fields, an odd body, then mutations. */
export const hostile: fc.Arbitrary<Buffer> = fc
  .record({
    base: fc.oneof(
      wellFormed.map((w) => w.bytes),
      compressed,
      fc
        .record({
          start: fc.oneof(
            {
              weight: 6,
              arbitrary: fc
                .tuple(
                  fc.oneof(
                    { arbitrary: fc.constantFrom('HTTP/1.1', 'HTTP/1.0'), weight: 6 },
                    fc.constantFrom('HTTP/1.2', 'HTTP/2', 'http/1.1', 'ICY'),
                  ),
                  fc.oneof(
                    { arbitrary: fc.integer({ min: 200, max: 599 }), weight: 4 },
                    fc.integer({ min: 0, max: 999 }),
                    fc.constantFrom(100, 101, 204, 304),
                  ),
                  fc.constantFrom(' OK', ' OK', ' OK', '', ' \0', ' é'),
                )
                .map(([version, code, reason]) => `${version} ${String(code)}${reason}`),
            },
            { arbitrary: fc.string({ maxLength: 30 }), weight: 1 },
          ),
          informational: fc.boolean(),
          fields: fc.array(hostileField, { maxLength: 6 }),
          body: hostileBody,
        })
        .map((r) => {
          const early = r.informational ? 'HTTP/1.1 100 Continue\r\n\r\n' : '';
          const head = `${early}${r.start}\r\n${r.fields.map((f) => `${f}\r\n`).join('')}\r\n`;
          return Buffer.concat([Buffer.from(head, 'latin1'), r.body]);
        }),
    ),
    mutations: fc.oneof(
      fc.constant<Mutation[]>([]),
      fc.array(mutation, { minLength: 1, maxLength: 3 }),
    ),
  })
  .map(({ base, mutations }) => mutations.reduce(mutate, base));
