import { describe, expect, it } from 'vitest';
import {
  TranscriptError,
  compareServerMessages,
  formatDifferences,
  formatTranscript,
  normalise,
  parseTranscript,
  serverMessages,
} from './transcript.js';

describe('the transcript format', () => {
  it('round-trips: header, revision, then one message a line', () => {
    const text = formatTranscript({
      header: ['# recorded by a test', 'no hash'],
      revision: '2025-11-25',
      messages: [
        { dir: '>>', message: { jsonrpc: '2.0', id: 1, method: 'ping' } },
        { dir: '<<', message: { jsonrpc: '2.0', id: 1, result: {} } },
        { dir: '<<', message: { jsonrpc: '2.0', method: 'notifications/message', params: {} } },
      ],
    });
    expect(text).toBe(
      [
        '# recorded by a test',
        '# no hash',
        '# revision: 2025-11-25',
        '',
        '>> {"jsonrpc":"2.0","id":1,"method":"ping"}',
        '<< {"jsonrpc":"2.0","id":1,"result":{}}',
        '<< {"jsonrpc":"2.0","method":"notifications/message","params":{}}',
        '',
      ].join('\n'),
    );
    const parsed = parseTranscript(text);
    expect(parsed.revision).toBe('2025-11-25');
    expect(parsed.header).toHaveLength(3);
    expect(parsed.steps).toEqual([
      {
        send: '{"jsonrpc":"2.0","id":1,"method":"ping"}',
        expect: [
          '{"jsonrpc":"2.0","id":1,"result":{}}',
          '{"jsonrpc":"2.0","method":"notifications/message","params":{}}',
        ],
      },
    ]);
  });

  it('refuses what it cannot read, naming the line', () => {
    expect(() => parseTranscript('>> {}\n')).toThrow(TranscriptError);
    expect(() => parseTranscript('# revision: x\n>> {nope\n')).toThrow(/line 2: not JSON/);
    expect(() => parseTranscript('# revision: x\n<< {}\n')).toThrow(/line 2: a "<<" line before/);
    expect(() => parseTranscript('# revision: x\n>> 3\n')).toThrow(/JSON object/);
  });
});

describe('comparing server messages', () => {
  it('leaves out the server identity and its own request ids', () => {
    const meta = { 'io.modelcontextprotocol/serverInfo': { name: 's', version: '1' } };
    expect(normalise({ id: 1, result: { a: 1, _meta: meta } })).toEqual({
      id: 1,
      result: { a: 1 },
    });
    expect(normalise({ id: 1, result: { _meta: { ...meta, other: 1 } } })).toEqual({
      id: 1,
      result: { _meta: { other: 1 } },
    });
    const recorded = serverMessages([
      { id: 'srv-9', method: 'roots/list' },
      { id: 1, result: { _meta: meta } },
    ]);
    const now = serverMessages([
      { id: 0, method: 'roots/list' },
      { id: 1, result: {} },
    ]);
    expect(compareServerMessages(recorded, now)).toEqual([]);
  });

  it('compares responses by id whatever their order, and reports what differs', () => {
    const recorded = serverMessages([
      { id: 1, result: { a: 1 } },
      { id: 2, result: { b: 2 } },
    ]);
    const same = serverMessages([
      { id: 2, result: { b: 2 } },
      { result: { a: 1 }, id: 1 },
    ]);
    expect(compareServerMessages(recorded, same)).toEqual([]);
    const other = serverMessages([{ id: 1, result: { a: 9 } }, { method: 'notifications/x' }]);
    const differences = compareServerMessages(recorded, other);
    expect(differences.map((d) => d.what)).toEqual([
      'response to #1',
      'response to #2',
      'server message 1',
    ]);
    expect(formatDifferences(differences)).toBe(
      [
        '@@ response to #1',
        '- {"id":1,"result":{"a":1}}',
        '+ {"id":1,"result":{"a":9}}',
        '@@ response to #2',
        '- {"id":2,"result":{"b":2}}',
        '+ (nothing)',
        '@@ server message 1',
        '- (nothing)',
        '+ {"method":"notifications/x"}',
      ].join('\n'),
    );
  });
});
