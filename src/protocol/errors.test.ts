import { describe, expect, it } from 'vitest';
import { ErrorCode, JsonRpcError } from '../jsonrpc/errors.js';
import { assertValidMessage, specDefinitions } from '../../test/helpers/spec-schema.js';
import type { SchemaNode } from '../../test/helpers/spec-schema.js';
import {
  McpErrorCode,
  headerMismatch,
  invalidParams,
  missingRequiredClientCapability,
  resourceNotFound,
  unsupportedProtocolVersion,
  urlElicitationRequired,
} from './errors.js';
import type { ProtocolRevision } from './version.js';

/** The `error.code` const of an error-response definition (`allOf: [Error, { code }]`). */
function codeOf(revision: ProtocolRevision, name: string): unknown {
  const def = specDefinitions(revision)[name];
  const error = (def?.['properties'] as Record<string, SchemaNode>)['error']!;
  const own = (error['allOf'] as SchemaNode[])[1]!;
  return (own['properties'] as Record<string, SchemaNode>)['code']!['const'];
}

const respond = (error: JsonRpcError) => ({ jsonrpc: '2.0', id: 7, error: error.toWire() });

describe('McpErrorCode', () => {
  it('reuses the JSON-RPC codes', () => {
    for (const [name, code] of Object.entries(ErrorCode)) {
      expect(McpErrorCode[name as keyof typeof McpErrorCode], name).toBe(code);
    }
  });

  it('has the codes the schemas define', () => {
    expect(McpErrorCode.HeaderMismatch).toBe(codeOf('2026-07-28', 'HeaderMismatchError'));
    expect(McpErrorCode.MissingRequiredClientCapability).toBe(
      codeOf('2026-07-28', 'MissingRequiredClientCapabilityError'),
    );
    expect(McpErrorCode.UnsupportedProtocolVersion).toBe(
      codeOf('2026-07-28', 'UnsupportedProtocolVersionError'),
    );
    expect(McpErrorCode.UrlElicitationRequired).toBe(
      codeOf('2025-11-25', 'URLElicitationRequiredError'),
    );
  });
});

describe('constructors', () => {
  it('build errors whose responses match the spec definitions', () => {
    const unsupported = unsupportedProtocolVersion('1900-01-01', ['2026-07-28', '2025-11-25']);
    expect(unsupported.toWire()).toEqual({
      code: -32022,
      message: 'unsupported protocol version',
      data: { supported: ['2026-07-28', '2025-11-25'], requested: '1900-01-01' },
    });
    assertValidMessage('2026-07-28', respond(unsupported));

    const missing = missingRequiredClientCapability({ elicitation: {} });
    expect(missing.data).toEqual({ requiredCapabilities: { elicitation: {} } });
    assertValidMessage('2026-07-28', respond(missing));

    const mismatch = headerMismatch('Mcp-Method header "a" does not match body method "b"');
    expect(mismatch.code).toBe(-32020);
    assertValidMessage('2026-07-28', respond(mismatch));

    const elicitation = urlElicitationRequired([
      { mode: 'url', message: 'Sign in', url: 'https://example.com/login', elicitationId: 'e1' },
    ]);
    expect(elicitation.code).toBe(-32042);
    assertValidMessage('2025-11-25', respond(elicitation));

    assertValidMessage('2026-07-28', respond(invalidParams('unknown tool "x"')));
  });

  it('reject data the spec does not allow, through the same check', () => {
    const bad = new JsonRpcError(-32022, 'unsupported protocol version', { supported: [] });
    expect(() => {
      assertValidMessage('2026-07-28', respond(bad));
    }).toThrow(/UnsupportedProtocolVersionError/);
  });

  it('use -32002 for a missing resource in legacy revisions and -32602 in modern ones', () => {
    const legacy = resourceNotFound('file:///x', 'legacy');
    expect(legacy.toWire()).toEqual({
      code: -32002,
      message: 'resource not found',
      data: { uri: 'file:///x' },
    });
    const modern = resourceNotFound('file:///x', 'modern');
    expect(modern.code).toBe(-32602);
    expect(modern.data).toEqual({ uri: 'file:///x' });
    assertValidMessage('2025-11-25', respond(legacy));
    assertValidMessage('2026-07-28', respond(modern));
  });
});
