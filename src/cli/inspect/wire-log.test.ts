import { describe, expect, it } from 'vitest';
import type { Message, Receiver, Transport } from '../../jsonrpc/index.js';
import { MASK, WireLog, logFetch, logTransport, maskHeaders, shownHeaders } from './wire-log.js';

describe('WireLog', () => {
  it('numbers entries, keeps the newest up to its limit and tells subscribers', () => {
    const log = new WireLog(3);
    const seen: number[] = [];
    const stop = log.subscribe((entry) => seen.push(entry.seq));
    for (let i = 0; i < 5; i++) {
      log.add({ dir: '>>', kind: 'jsonrpc', message: { jsonrpc: '2.0', method: `m${String(i)}` } });
    }
    stop();
    log.add({ dir: '<<', kind: 'jsonrpc', message: {} });
    expect(log.entries().map((e) => e.seq)).toEqual([4, 5, 6]);
    expect(log.entries(2).map((e) => e.seq)).toEqual([5, 6]);
    expect(seen).toEqual([1, 2, 3, 4, 5]);
    expect(log.nextSeq).toBe(7);
  });

  it('keeps fewer entries when they are big, but always the newest', () => {
    const log = new WireLog(100, 1000);
    log.add({ dir: '>>', kind: 'jsonrpc', message: { text: 'a'.repeat(400) } });
    log.add({ dir: '>>', kind: 'jsonrpc', message: { text: 'b'.repeat(400) } });
    log.add({ dir: '>>', kind: 'jsonrpc', message: { text: 'c'.repeat(400) } });
    expect(log.entries().map((e) => e.seq)).toEqual([2, 3]);
    log.add({ dir: '>>', kind: 'jsonrpc', message: { text: 'd'.repeat(5000) } });
    expect(log.entries().map((e) => e.seq)).toEqual([4]);
  });
});

describe('header masking', () => {
  it('masks authorization, cookies, tokens and keys', () => {
    expect(
      maskHeaders({
        Authorization: 'Bearer x',
        'X-Api-Key': 'k',
        Cookie: 'c',
        Accept: 'a',
        'X-Auth-Token': 't',
      }),
    ).toEqual({
      Authorization: MASK,
      'X-Api-Key': MASK,
      Cookie: MASK,
      Accept: 'a',
      'X-Auth-Token': MASK,
    });
  });

  it('shows the headers that matter, lower-cased, and no others', () => {
    const headers = new Headers({
      'Content-Type': 'application/json',
      'Mcp-Session-Id': 's1',
      'Mcp-Param-Region': 'eu',
      Authorization: 'Bearer secret',
      'User-Agent': 'x',
    });
    expect(shownHeaders(headers)).toEqual({
      'content-type': 'application/json',
      'mcp-session-id': 's1',
      'mcp-param-region': 'eu',
      authorization: MASK,
    });
  });
});

describe('logTransport', () => {
  it('labels requests and pairs responses with their method and revision', async () => {
    const log = new WireLog();
    let receiver: Receiver | undefined;
    const versions: (string | undefined)[] = [];
    const inner: Transport & { setProtocolVersion(r?: string): void } = {
      start: (r) => {
        receiver = r;
        return Promise.resolve();
      },
      send: () => Promise.resolve(),
      close: () => Promise.resolve(),
      setProtocolVersion: (r) => versions.push(r),
    };
    const wrapped = logTransport(inner, log);
    const got: Message[] = [];
    await wrapped.start({ message: (m) => got.push(m), closed: () => undefined });
    await wrapped.send({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25' },
    } as unknown as Message);
    receiver!.message({
      jsonrpc: '2.0',
      id: 1,
      result: { protocolVersion: '2025-06-18' },
    });
    await wrapped.send({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
    wrapped.setProtocolVersion('2025-06-18');
    expect(versions).toEqual(['2025-06-18']);
    expect(got).toHaveLength(1);
    const entries = log.entries();
    expect(
      entries.map((e) => (e.kind === 'jsonrpc' ? [e.dir, e.method, e.id, e.revision] : [])),
    ).toEqual([
      ['>>', 'initialize', 1, '2025-11-25'],
      ['<<', 'initialize', 1, '2025-06-18'],
      ['>>', 'tools/list', 2, '2025-06-18'],
    ]);
  });
});

describe('logFetch', () => {
  it('logs a request that got no response, with why', async () => {
    const log = new WireLog();
    const fetch = logFetch(log, () => Promise.reject(new TypeError('fetch failed')));
    await expect(fetch('http://127.0.0.1:9/mcp', { method: 'POST' })).rejects.toThrow(
      'fetch failed',
    );
    const last = log.entries().at(-1);
    expect(last?.kind === 'http' ? last.http : undefined).toMatchObject({
      method: 'POST',
      error: 'fetch failed',
    });
  });

  it('logs the request, the response and each SSE event, passing the body through', async () => {
    const log = new WireLog();
    const body = 'id: 7\nevent: message\ndata: {"a":1}\n\n: comment\n\nretry: 500\ndata: x\n\n';
    const inner = () =>
      Promise.resolve(
        new Response(body, { status: 200, headers: { 'Content-Type': 'text/event-stream' } }),
      );
    const fetch = logFetch(log, inner);
    const response = await fetch('http://127.0.0.1/mcp', {
      method: 'POST',
      headers: { Authorization: 'Bearer s', 'Content-Type': 'application/json' },
    });
    expect(await response.text()).toBe(body);
    const http = log.entries().map((e) => (e.kind === 'http' ? e.http : undefined));
    expect(http[0]).toEqual({
      method: 'POST',
      url: 'http://127.0.0.1/mcp',
      headers: { authorization: MASK, 'content-type': 'application/json' },
    });
    expect(http[1]).toMatchObject({
      status: 200,
      headers: { 'content-type': 'text/event-stream' },
    });
    expect(http.slice(2).map((h) => h?.sse)).toEqual([
      { id: '7', event: 'message' },
      { retry: 500 },
    ]);
  });
});
