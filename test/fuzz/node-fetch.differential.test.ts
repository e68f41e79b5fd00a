// Differential test of the HTTP/1.1 client (src/transports/http/client/node-fetch.ts) against
// Node's own parser (llhttp, through node:http): on a corpus of raw responses and on generated
// well-formed ones, both clients give the same verdict (the same status, headers and body bytes,
// or a refusal). Where they differ on purpose, the case records why, by RFC 9112 / RFC 9110, and
// what each does; docs/fuzzing.md lists these differences.
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import type { NodeFetch } from '../../src/transports/http/client/node-fetch.js';
import { createNodeFetch } from '../../src/transports/http/client/node-fetch.js';
import type { Method, Script, Verdict } from './raw-http.js';
import { rawServer, viaNodeFetch, viaNodeHttp } from './raw-http.js';
import { wellFormed } from './responses.js';
import { FUZZ, FUZZ_TIMEOUT_MS } from './settings.js';

const MAX_HEAD = 16_384;
const fetches: NodeFetch[] = [];
afterAll(() => {
  for (const f of fetches) f.close();
});

interface Case {
  readonly name: string;
  readonly responses: readonly string[];
  readonly methods?: readonly Method[];
  /** Whether the server ends the connection after the last response. Default true. */
  readonly close?: boolean;
  /** A difference on purpose: why, and whether each client accepts. */
  readonly differs?: { readonly why: string; readonly ours: boolean; readonly node: boolean };
  /** Fields our client must read, where the verdicts differ. */
  readonly fields?: Readonly<Record<string, string | undefined>>;
}

const OK = 'HTTP/1.1 200 OK\r\n';
const CHUNKED = `${OK}Transfer-Encoding: chunked\r\n\r\n`;
const hi = (fields: string): string => `${OK}${fields}Content-Length: 2\r\n\r\nhi`;
const NEXT = `${OK}Content-Length: 1\r\n\r\nb`;

const WHY = {
  bws: 'RFC 9112 §7.1.1 allows whitespace (BWS) before the ";" of a chunk extension; llhttp does not',
  coding:
    'a transfer coding other than a final chunked cannot be decoded, so there is no body to give ' +
    '(RFC 9112 §6.3 would read it until close, coded); node:http hands out the coded bytes',
  fold:
    'RFC 9112 §5.2: a user agent replaces an obs-fold with SP (undici fetch does too); node:http ' +
    'refuses it',
  leftover:
    'bytes after a complete response: we give the response and drop the connection; llhttp reads ' +
    'them as the next response and fails the request that was already complete',
  reason:
    'RFC 9112 §4: a reason phrase is HTAB, SP, VCHAR and obs-text; a Response cannot carry a ' +
    'statusText with control characters',
  status: 'RFC 9110 §15: a status code below 100 has no class (undici fetch refuses it too)',
  head: 'maxHeaderBytes caps the whole head; node:http let 24 KB of small fields past 16 KB',
};

const CORPUS: readonly Case[] = [
  {
    name: 'content-length',
    responses: [`${OK}Content-Length: 5\r\nContent-Type: text/plain\r\n\r\nhello`],
  },
  { name: 'chunked', responses: [`${CHUNKED}5\r\nhello\r\n6\r\n world\r\n0\r\n\r\n`] },
  { name: 'chunk extensions', responses: [`${CHUNKED}5;foo=bar\r\nhello\r\n0;x\r\n\r\n`] },
  {
    name: 'quoted chunk extension',
    responses: [`${CHUNKED}5;foo="b;a\\"r"\r\nhello\r\n0\r\n\r\n`],
  },
  { name: 'trailers', responses: [`${CHUNKED}5\r\nhello\r\n0\r\nX-T: 1\r\nX-U: 2\r\n\r\n`] },
  { name: 'malformed trailer', responses: [`${CHUNKED}5\r\nhello\r\n0\r\nbad trailer\r\n\r\n`] },
  { name: 'upper-case hex size', responses: [`${CHUNKED}A\r\n0123456789\r\n0\r\n\r\n`] },
  { name: 'leading zeros in a size', responses: [`${CHUNKED}0005\r\nhello\r\n0\r\n\r\n`] },
  {
    name: 'whitespace before a chunk extension',
    responses: [`${CHUNKED}5 ;a=b\r\nhello\r\n0\r\n\r\n`],
    differs: { why: WHY.bws, ours: true, node: false },
  },
  { name: 'whitespace after a size', responses: [`${CHUNKED}5 \r\nhello\r\n0\r\n\r\n`] },
  { name: 'whitespace before a size', responses: [`${CHUNKED} 5\r\nhello\r\n0\r\n\r\n`] },
  {
    name: 'control character in an extension',
    responses: [`${CHUNKED}2;a\x01\r\nhi\r\n0\r\n\r\n`],
  },
  { name: 'empty extension', responses: [`${CHUNKED}2;\r\nhi\r\n0\r\n\r\n`] },
  { name: 'LF in an extension', responses: [`${CHUNKED}2;a\nb\r\nhi\r\n0\r\n\r\n`] },
  { name: 'bad size zz', responses: [`${CHUNKED}zz\r\nhi\r\n0\r\n\r\n`] },
  { name: 'negative size', responses: [`${CHUNKED}-2\r\nhi\r\n0\r\n\r\n`] },
  { name: 'two sizes', responses: [`${CHUNKED}2 2\r\nhi\r\n0\r\n\r\n`] },
  { name: 'size overflow', responses: [`${CHUNKED}ffffffffffffffffffff\r\nhi\r\n0\r\n\r\n`] },
  { name: 'size 0x2', responses: [`${CHUNKED}0x2\r\nhi\r\n0\r\n\r\n`] },
  { name: 'empty size', responses: [`${CHUNKED}\r\nhi\r\n0\r\n\r\n`] },
  { name: 'chunk longer than its size', responses: [`${CHUNKED}2\r\nhello\r\n0\r\n\r\n`] },
  { name: 'bare LF after a size', responses: [`${CHUNKED}2\nhi\r\n0\r\n\r\n`] },
  { name: 'bare LF after chunk data', responses: [`${CHUNKED}2\r\nhi\n0\r\n\r\n`] },
  { name: 'bare LF in the last chunk', responses: [`${CHUNKED}2\r\nhi\r\n0\n\n`] },
  {
    name: 'keep-alive, two responses',
    responses: [`${OK}Content-Length: 1\r\n\r\na`, NEXT],
    methods: ['GET', 'GET'],
    close: false,
  },
  {
    name: 'keep-alive, two chunked responses',
    responses: [`${CHUNKED}1\r\na\r\n0\r\n\r\n`, `${CHUNKED}1\r\nb\r\n0\r\n\r\n`],
    methods: ['GET', 'GET'],
    close: false,
  },
  {
    name: 'connection: close, then a new connection',
    responses: [`${OK}Connection: close\r\nContent-Length: 1\r\n\r\na`, NEXT],
    methods: ['GET', 'GET'],
    close: false,
  },
  { name: 'early close in a length body', responses: [`${OK}Content-Length: 10\r\n\r\nabc`] },
  { name: 'early close in a chunk', responses: [`${CHUNKED}5\r\nhel`] },
  { name: 'early close before the last chunk', responses: [`${CHUNKED}5\r\nhello\r\n`] },
  { name: 'early close in the trailers', responses: [`${CHUNKED}5\r\nhello\r\n0\r\n`] },
  { name: 'early close in the head', responses: [`${OK}Content-Le`] },
  { name: 'early close after the status line', responses: [OK] },
  { name: 'close without a byte', responses: [''] },
  { name: 'body until close', responses: [`${OK}\r\nuntil close`] },
  { name: 'no body until close', responses: [`${OK}\r\n`] },
  { name: 'HTTP/1.0 with a length', responses: ['HTTP/1.0 200 OK\r\nContent-Length: 2\r\n\r\nhi'] },
  {
    name: 'HTTP/1.0 chunked',
    responses: [`HTTP/1.0 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nhi\r\n0\r\n\r\n`],
  },
  { name: 'no reason phrase', responses: ['HTTP/1.1 200\r\nContent-Length: 2\r\n\r\nhi'] },
  { name: 'empty reason phrase', responses: ['HTTP/1.1 200 \r\nContent-Length: 2\r\n\r\nhi'] },
  {
    name: 'obs-text reason phrase',
    responses: ['HTTP/1.1 200 O\xe9K\r\nContent-Length: 2\r\n\r\nhi'],
  },
  {
    name: 'NUL in the reason phrase',
    responses: ['HTTP/1.1 200 O\x00K\r\nContent-Length: 2\r\n\r\nhi'],
    differs: { why: WHY.reason, ours: false, node: true },
  },
  {
    name: 'control character in the reason phrase',
    responses: ['HTTP/1.1 200 O\x01K\r\nContent-Length: 2\r\n\r\nhi'],
    differs: { why: WHY.reason, ours: false, node: true },
  },
  { name: 'four-digit status', responses: ['HTTP/1.1 2000 OK\r\nContent-Length: 2\r\n\r\nhi'] },
  { name: 'two-digit status', responses: ['HTTP/1.1 20 OK\r\nContent-Length: 2\r\n\r\nhi'] },
  {
    name: 'status 099',
    responses: ['HTTP/1.1 099 X\r\nContent-Length: 2\r\n\r\nhi'],
    differs: { why: WHY.status, ours: false, node: true },
  },
  {
    name: 'status 000',
    responses: ['HTTP/1.1 000 X\r\nContent-Length: 2\r\n\r\nhi'],
    differs: { why: WHY.status, ours: false, node: true },
  },
  { name: 'status 600', responses: ['HTTP/1.1 600 X\r\nContent-Length: 2\r\n\r\nhi'] },
  { name: 'HTTP/2 status line', responses: ['HTTP/2 200 OK\r\nContent-Length: 2\r\n\r\nhi'] },
  { name: 'HTTP/1.2', responses: ['HTTP/1.2 200 OK\r\nContent-Length: 2\r\n\r\nhi'] },
  { name: 'lower-case http', responses: ['http/1.1 200 OK\r\nContent-Length: 2\r\n\r\nhi'] },
  {
    name: 'two spaces after the version',
    responses: ['HTTP/1.1  200 OK\r\nContent-Length: 2\r\n\r\nhi'],
  },
  { name: 'not HTTP', responses: ['SMTP ready\r\n\r\n'] },
  { name: 'field line without a colon', responses: [hi('Bad header\r\n')] },
  { name: 'whitespace before the colon', responses: [`${OK}Content-Length : 2\r\n\r\nhi`] },
  { name: 'space in a name', responses: [hi('X Foo: 1\r\n')] },
  { name: 'empty name', responses: [hi(': x\r\n')] },
  { name: 'name with parentheses', responses: [hi('X-(a): 1\r\n')] },
  { name: 'name with a slash', responses: [hi('X/a: 1\r\n')] },
  { name: 'NUL in a value', responses: [hi('X-A: a\x00b\r\n')] },
  { name: 'CR in a value', responses: [hi('X-A: a\rb\r\n')] },
  { name: 'control character in a value', responses: [hi('X-A: a\x01b\r\n')] },
  { name: 'DEL in a value', responses: [hi('X-A: a\x7fb\r\n')] },
  { name: 'tab in a value', responses: [hi('X-A: a\tb\r\n')] },
  { name: 'obs-text in a value', responses: [hi('X-A: caf\xe9\r\n')] },
  { name: 'no space after the colon', responses: [`${OK}X-A:b\r\nContent-Length:2\r\n\r\nhi`] },
  { name: 'whitespace around a length', responses: [`${OK}Content-Length:  2  \r\n\r\nhi`] },
  {
    name: 'obs-fold',
    responses: [hi('X-A: a\r\n b\r\n')],
    differs: { why: WHY.fold, ours: true, node: false },
    fields: { 'x-a': 'a b' },
  },
  {
    name: 'obs-fold with a tab',
    responses: [hi('X-A: a\r\n\tb\r\n')],
    differs: { why: WHY.fold, ours: true, node: false },
  },
  {
    name: 'obs-fold that looks like a field',
    responses: [hi('X-A: a\r\n X-Evil: 1\r\n')],
    differs: { why: WHY.fold, ours: true, node: false },
    fields: { 'x-a': 'a X-Evil: 1', 'x-evil': undefined },
  },
  { name: 'whitespace before the first field', responses: [hi(' X-A: 1\r\n')] },
  { name: 'bare LF line ends', responses: ['HTTP/1.1 200 OK\nContent-Length: 2\n\nhi'] },
  {
    name: 'bare LF line ends, the connection kept open',
    responses: ['HTTP/1.1 200 OK\nContent-Length: 2\n\nhi'],
    close: false,
  },
  { name: 'bare LF ending the head', responses: [`${OK}Content-Length: 2\r\n\nhi`] },
  { name: 'bare LF between fields', responses: [hi('X-A: 1\n')] },
  {
    name: 'bare LF after the status line',
    responses: ['HTTP/1.1 200 OK\nContent-Length: 2\r\n\r\nhi'],
  },
  { name: 'bare CR between fields', responses: [hi('X-A: 1\r')] },
  { name: 'CR CR LF ending the head', responses: [`${OK}Content-Length: 2\r\n\r\r\nhi`] },
  {
    name: 'two equal lengths',
    responses: [`${OK}Content-Length: 2\r\nContent-Length: 2\r\n\r\nhi`],
  },
  {
    name: 'two different lengths',
    responses: [`${OK}Content-Length: 2\r\nContent-Length: 3\r\n\r\nhix`],
  },
  { name: 'a list of lengths', responses: [`${OK}Content-Length: 2, 2\r\n\r\nhi`] },
  { name: 'length +2', responses: [`${OK}Content-Length: +2\r\n\r\nhi`] },
  { name: 'length -1', responses: [`${OK}Content-Length: -1\r\n\r\nhi`] },
  { name: 'length 0x2', responses: [`${OK}Content-Length: 0x2\r\n\r\nhi`] },
  { name: 'length overflow', responses: [`${OK}Content-Length: 99999999999999999999\r\n\r\nhi`] },
  { name: 'empty length', responses: [`${OK}Content-Length: \r\n\r\nhi`] },
  { name: 'length 1 2', responses: [`${OK}Content-Length: 1 2\r\n\r\nhi`] },
  {
    name: 'transfer-encoding and content-length',
    responses: [`${OK}Transfer-Encoding: chunked\r\nContent-Length: 3\r\n\r\n2\r\nhi\r\n0\r\n\r\n`],
  },
  {
    name: 'content-length and transfer-encoding',
    responses: [`${OK}Content-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nhi\r\n0\r\n\r\n`],
  },
  {
    name: 'gzip, chunked',
    responses: [`${OK}Transfer-Encoding: gzip, chunked\r\n\r\n2\r\nhi\r\n0\r\n\r\n`],
  },
  {
    name: 'transfer-encoding in two fields',
    responses: [
      `${OK}Transfer-Encoding: gzip\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nhi\r\n0\r\n\r\n`,
    ],
  },
  {
    name: 'chunked, chunked',
    responses: [`${OK}Transfer-Encoding: chunked, chunked\r\n\r\n2\r\nhi\r\n0\r\n\r\n`],
  },
  { name: 'CHUNKED', responses: [`${OK}Transfer-Encoding: CHUNKED\r\n\r\n2\r\nhi\r\n0\r\n\r\n`] },
  ...['chunked, gzip', 'identity', 'gzip', 'xchunked', ''].map((coding): Case => ({
    name: `transfer-encoding "${coding}"`,
    responses: [`${OK}Transfer-Encoding: ${coding}\r\n\r\nhi`],
    differs: { why: WHY.coding, ours: false, node: true },
  })),
  { name: 'oversized field', responses: [hi(`X-Big: ${'a'.repeat(20_000)}\r\n`)] },
  {
    name: 'many small fields past the cap',
    responses: [hi('X-A: 1\r\n'.repeat(3000))],
    differs: { why: WHY.head, ours: false, node: true },
  },
  { name: '100 Continue first', responses: [`HTTP/1.1 100 Continue\r\n\r\n${hi('')}`] },
  {
    name: '103 Early Hints first',
    responses: [`HTTP/1.1 103 Early Hints\r\nLink: </a>\r\n\r\n${hi('')}`],
  },
  {
    name: 'two 1xx first',
    responses: [`HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 102 Processing\r\n\r\n${hi('')}`],
  },
  {
    name: 'malformed field in a 1xx',
    responses: [`HTTP/1.1 100 Continue\r\nbad\r\n\r\n${hi('')}`],
  },
  {
    name: '204 with a zero length',
    responses: ['HTTP/1.1 204 No Content\r\nContent-Length: 0\r\n\r\n'],
  },
  {
    name: '204 with body bytes',
    responses: ['HTTP/1.1 204 No Content\r\nContent-Length: 2\r\n\r\nhi'],
    differs: { why: WHY.leftover, ours: true, node: false },
  },
  {
    name: '204, then a response on the same connection',
    responses: ['HTTP/1.1 204 No Content\r\n\r\n', NEXT],
    methods: ['GET', 'GET'],
    close: false,
  },
  {
    name: '304 with a length, then a response',
    responses: ['HTTP/1.1 304 Not Modified\r\nContent-Length: 5\r\n\r\n', NEXT],
    methods: ['GET', 'GET'],
    close: false,
  },
  {
    name: '304 chunked, then a response',
    responses: ['HTTP/1.1 304 Not Modified\r\nTransfer-Encoding: chunked\r\n\r\n', NEXT],
    methods: ['GET', 'GET'],
    close: false,
  },
  {
    name: 'HEAD with a length, then a GET',
    responses: [`${OK}Content-Length: 5\r\n\r\n`, NEXT],
    methods: ['HEAD', 'GET'],
    close: false,
  },
  {
    name: 'HEAD chunked, then a GET',
    responses: [CHUNKED, NEXT],
    methods: ['HEAD', 'GET'],
    close: false,
  },
  { name: 'HEAD without a length', responses: [`${OK}\r\n`], methods: ['HEAD'], close: false },
  {
    name: '205 with a zero length',
    responses: ['HTTP/1.1 205 Reset Content\r\nContent-Length: 0\r\n\r\n'],
  },
  {
    name: 'bytes after a complete response',
    responses: [`${OK}Content-Length: 2\r\n\r\nhiEXTRA`],
    differs: { why: WHY.leftover, ours: true, node: false },
  },
  {
    name: 'event stream with a length',
    responses: [`${OK}Content-Type: text/event-stream\r\nContent-Length: 8\r\n\r\ndata: x\n`],
  },
  {
    name: 'chunked event stream',
    responses: [
      `${OK}Content-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n8\r\ndata: x\n\r\n0\r\n\r\n`,
    ],
  },
  { name: 'POST', responses: [hi('')], methods: ['POST'] },
];

/** A verdict reduced to what both clients must agree on; header names sorted. */
function comparable(verdict: Verdict): unknown {
  if (!verdict.ok) return verdict.error === 'hang' ? 'hang' : 'refused';
  const headers = Object.fromEntries(
    Object.entries(verdict.headers).sort(([a], [b]) => (a < b ? -1 : 1)),
  );
  return { status: verdict.status, headers, body: verdict.body };
}

async function both(script: Script, methods: readonly Method[]): Promise<[Verdict[], Verdict[]]> {
  const ours = await rawServer(script);
  const f = createNodeFetch({ maxHeaderBytes: MAX_HEAD });
  fetches.push(f);
  const theirs = await rawServer(script);
  try {
    return await Promise.all([
      viaNodeFetch(f, ours.url, methods),
      viaNodeHttp(theirs.url, methods, MAX_HEAD),
    ]);
  } finally {
    f.close();
    await Promise.all([ours.close(), theirs.close()]);
  }
}

describe('differential: node-fetch against node:http (llhttp)', () => {
  it.each(CORPUS.map((c) => [c.name, c] as const))('%s', async (_name, corpusCase) => {
    const { responses, methods = ['GET'], close, differs, fields } = corpusCase;
    const script: Script = {
      responses: responses.map((r) => Buffer.from(r, 'latin1')),
      ...(close === undefined ? {} : { close }),
    };
    const [ours, theirs] = await both(script, methods);
    if (differs === undefined) {
      expect(ours.map(comparable)).toEqual(theirs.map(comparable));
    } else {
      const kind = (v: Verdict): unknown =>
        v.ok ? true : comparable(v) === 'hang' ? 'hang' : false;
      expect(ours.map(kind)).toEqual(methods.map(() => differs.ours));
      expect(theirs.map(kind)).toEqual(methods.map(() => differs.node));
    }
    for (const [name, value] of Object.entries(fields ?? {})) {
      expect(ours[0]?.ok === true ? ours[0].headers[name] : 'refused').toBe(value);
    }
    // However the bytes are split, ours reads the same.
    const split = await rawServer({ ...script, cuts: Array.from({ length: 400 }, (_, i) => i) });
    const f = createNodeFetch({ maxHeaderBytes: MAX_HEAD });
    fetches.push(f);
    try {
      const again = await viaNodeFetch(f, split.url, methods);
      expect(again.map(comparable)).toEqual(ours.map(comparable));
    } finally {
      f.close();
      await split.close();
    }
  });

  it(
    'agrees on generated well-formed responses, one or two on a connection, however split',
    async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.array(wellFormed, { minLength: 1, maxLength: 2 }),
          fc.array(fc.nat(), { maxLength: 8 }),
          async (generated, cuts) => {
            // A response read until close can only be the last one.
            const cut = generated.findIndex((g) => g.untilClose);
            const kept = cut < 0 ? generated : generated.slice(0, cut + 1);
            const methods = kept.map((): Method => 'GET');
            const [ours, theirs] = await both(
              { responses: kept.map((g) => g.bytes), cuts },
              methods,
            );
            expect(ours.every((v) => v.ok)).toBe(true);
            expect(ours.map(comparable)).toEqual(theirs.map(comparable));
          },
        ),
        FUZZ,
      );
    },
    FUZZ_TIMEOUT_MS,
  );
});
