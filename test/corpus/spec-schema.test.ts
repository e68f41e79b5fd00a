// The spec-schema test helper picks the right definitions for each message and revision.
import { describe, expect, it } from 'vitest';
import {
  assertValidAgainstSpec,
  assertValidMessage,
  isSpecValid,
  validateAgainstSpec,
} from '../helpers/spec-schema.js';

const legacyCall = {
  jsonrpc: '2.0',
  id: 1,
  method: 'tools/call',
  params: { name: 'echo', arguments: { text: 'hi' } },
};

const modernMeta = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
};

describe('validateAgainstSpec', () => {
  it('reports problems one per line and nothing when valid', () => {
    expect(validateAgainstSpec('2025-11-25', 'CallToolRequest', legacyCall)).toEqual({
      valid: true,
      errors: '',
    });
    const bad = validateAgainstSpec('2025-11-25', 'CallToolRequest', { ...legacyCall, params: {} });
    expect(bad.valid).toBe(false);
    expect(bad.errors).toContain("must have required property 'name'");
  });

  it('throws for a type the revision does not define', () => {
    expect(() => validateAgainstSpec('2024-11-05', 'DiscoverRequest' as never, {})).toThrow(
      'spec 2024-11-05 has no definition DiscoverRequest',
    );
  });

  it('narrows with isSpecValid and throws with assertValidAgainstSpec', () => {
    const value: unknown = { name: 'n', version: '1' };
    if (isSpecValid('2026-07-28', 'Implementation', value)) expect(value.name).toBe('n');
    else expect.unreachable();
    expect(() => {
      assertValidAgainstSpec('2026-07-28', 'Implementation', { name: 1 });
    }).toThrow(/value is not a valid 2026-07-28 Implementation/);
  });
});

describe('assertValidMessage', () => {
  it('checks a request against its method type in each revision', () => {
    assertValidMessage('2024-11-05', legacyCall);
    assertValidMessage('2025-11-25', legacyCall);
    expect(() => {
      assertValidMessage('2026-07-28', legacyCall);
    }).toThrow(/2026-07-28 CallToolRequest/);
    assertValidMessage('2026-07-28', {
      ...legacyCall,
      params: { ...legacyCall.params, _meta: modernMeta },
    });
  });

  it('rejects methods the revision does not have, or does not send as requests', () => {
    expect(() => {
      assertValidMessage('2026-07-28', { jsonrpc: '2.0', id: 1, method: 'ping' });
    }).toThrow('method "ping" is not defined in 2026-07-28');
    expect(() => {
      assertValidMessage('2026-07-28', { jsonrpc: '2.0', id: 1, method: 'roots/list' });
    }).toThrow(/input request/);
    expect(() => {
      assertValidMessage('2025-11-25', { jsonrpc: '2.0', method: 'ping' });
    }).toThrow('ping is a request in 2025-11-25, but the message is not');
    assertValidMessage('2025-11-25', { jsonrpc: '2.0', id: 'p', method: 'ping' });
  });

  it('checks notifications against their method type', () => {
    const progress = {
      jsonrpc: '2.0',
      method: 'notifications/progress',
      params: { progressToken: 't', progress: 1 },
    };
    assertValidMessage('2025-06-18', progress);
    expect(() => {
      assertValidMessage('2025-06-18', { ...progress, params: { progress: 1 } });
    }).toThrow(/ProgressNotification/);
  });

  it('checks results against the method result type when told the method', () => {
    const legacy = { jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text: 'x' }] } };
    assertValidMessage('2025-03-26', legacy, { method: 'tools/call' });
    expect(() => {
      assertValidMessage('2025-03-26', legacy, { method: 'tools/list' });
    }).toThrow(/2025-03-26 ListToolsResult/);
    // 2026-07-28 results carry resultType; input_required results are checked as such.
    expect(() => {
      assertValidMessage('2026-07-28', legacy, { method: 'tools/call' });
    }).toThrow(/resultType/);
    const input = {
      jsonrpc: '2.0',
      id: 1,
      result: { resultType: 'input_required', requestState: 's' },
    };
    assertValidMessage('2026-07-28', input, { method: 'tools/call' });
  });

  it('uses each revision name for error responses and checks code-specific shapes', () => {
    const error = { jsonrpc: '2.0', id: 1, error: { code: -32601, message: 'method not found' } };
    assertValidMessage('2024-11-05', error);
    assertValidMessage('2026-07-28', error);
    expect(() => {
      assertValidMessage('2026-07-28', { ...error, error: { code: -32601 } });
    }).toThrow(/JSONRPCErrorResponse/);
    const unsupported = { jsonrpc: '2.0', id: 1, error: { code: -32022, message: 'x', data: {} } };
    expect(() => {
      assertValidMessage('2026-07-28', unsupported);
    }).toThrow(/UnsupportedProtocolVersionError/);
  });
});
