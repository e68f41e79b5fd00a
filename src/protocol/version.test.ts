import { describe, expect, it } from 'vitest';
import { JsonRpcError, LocalError } from '../jsonrpc/errors.js';
import { assertValidMessage, specDefinitions } from '../../test/helpers/spec-schema.js';
import {
  LATEST_LEGACY_REVISION,
  LATEST_REVISION,
  LEGACY_REVISIONS,
  MODERN_REVISIONS,
  MetaKey,
  PROTOCOL_REVISIONS,
  acceptServerRevision,
  chooseRevision,
  eraOf,
  isCompleteResult,
  isInputRequiredResult,
  isProtocolRevision,
  negotiateLegacyRevision,
  readModernMeta,
  requireModernRevision,
} from './version.js';

/** Runs `fn` and returns what it threw. */
function thrown(fn: () => unknown): unknown {
  try {
    fn();
  } catch (error) {
    return error;
  }
  throw new Error('expected a throw');
}

describe('revisions', () => {
  it('lists every revision oldest first, split into the two eras', () => {
    expect(PROTOCOL_REVISIONS).toEqual([...LEGACY_REVISIONS, ...MODERN_REVISIONS]);
    expect([...PROTOCOL_REVISIONS].sort()).toEqual(PROTOCOL_REVISIONS);
    expect(LATEST_LEGACY_REVISION).toBe(LEGACY_REVISIONS.at(-1));
    expect(LATEST_REVISION).toBe(PROTOCOL_REVISIONS.at(-1));
  });

  it('classifies each revision by whether its requests carry the version in _meta', () => {
    for (const revision of PROTOCOL_REVISIONS) {
      const meta = specDefinitions(revision)['RequestMetaObject'];
      const perRequest = JSON.stringify(meta ?? {}).includes(MetaKey.ProtocolVersion);
      expect(eraOf(revision), revision).toBe(perRequest ? 'modern' : 'legacy');
    }
  });

  it('recognizes revisions and nothing else', () => {
    expect(isProtocolRevision('2025-06-18')).toBe(true);
    expect(isProtocolRevision('2024-10-07')).toBe(false);
    expect(isProtocolRevision(20250618)).toBe(false);
    expect(isProtocolRevision(undefined)).toBe(false);
  });
});

describe('MetaKey', () => {
  it('names every io.modelcontextprotocol/ key of the 2026-07-28 meta objects', () => {
    const defs = specDefinitions('2026-07-28');
    const keys = new Set<string>();
    for (const [name, def] of Object.entries(defs)) {
      if (!name.endsWith('MetaObject')) continue;
      for (const key of Object.keys(def['properties'] ?? {})) keys.add(key);
    }
    const ours = Object.values(MetaKey).filter((k) => k !== MetaKey.RelatedTask);
    expect([...keys].sort()).toEqual([...ours].sort());
  });
});

describe('negotiateLegacyRevision', () => {
  it('returns the requested revision when it is supported and legacy', () => {
    expect(negotiateLegacyRevision('2025-03-26')).toBe('2025-03-26');
    expect(negotiateLegacyRevision('2024-11-05', ['2024-11-05', '2025-06-18'])).toBe('2024-11-05');
  });

  it('returns the newest supported legacy revision otherwise', () => {
    expect(negotiateLegacyRevision('1999-01-01')).toBe('2025-11-25');
    expect(negotiateLegacyRevision(undefined)).toBe('2025-11-25');
    expect(negotiateLegacyRevision('2026-07-28', PROTOCOL_REVISIONS)).toBe('2025-11-25');
    expect(negotiateLegacyRevision('2025-11-25', ['2025-06-18', '2024-11-05'])).toBe('2025-06-18');
  });

  it('throws TypeError when no legacy revision is supported', () => {
    expect(() => negotiateLegacyRevision('2025-11-25', ['2026-07-28'])).toThrow(TypeError);
  });
});

describe('acceptServerRevision', () => {
  it('accepts a legacy revision the client supports', () => {
    expect(acceptServerRevision('2025-06-18')).toBe('2025-06-18');
  });

  it('rejects anything else with a LocalError that is never sent', () => {
    for (const offered of ['2024-10-07', '2026-07-28', 42, undefined]) {
      const error = thrown(() => acceptServerRevision(offered, PROTOCOL_REVISIONS));
      expect(error).toBeInstanceOf(LocalError);
      expect((error as LocalError).code).toBe('UNSUPPORTED');
    }
    expect(() => acceptServerRevision('2024-11-05', ['2025-11-25'])).toThrow(LocalError);
  });
});

describe('chooseRevision', () => {
  it('picks the newest revision both sides support', () => {
    expect(chooseRevision(['2026-07-28', '2025-11-25'])).toBe('2026-07-28');
    expect(chooseRevision(['2025-06-18', 'x', 3], ['2024-11-05', '2025-06-18'])).toBe('2025-06-18');
  });

  it('returns undefined when there is no common revision or no list', () => {
    expect(chooseRevision(['2030-01-01'])).toBeUndefined();
    expect(chooseRevision('2025-11-25')).toBeUndefined();
  });
});

describe('readModernMeta', () => {
  it('reads the four request keys from params._meta', () => {
    const params = {
      _meta: {
        [MetaKey.ProtocolVersion]: '2026-07-28',
        [MetaKey.ClientCapabilities]: { sampling: {} },
        [MetaKey.ClientInfo]: { name: 'c', version: '1' },
        [MetaKey.LogLevel]: 'warning',
        'com.example/other': 1,
      },
      name: 'tool',
    };
    expect(readModernMeta(params)).toEqual({
      protocolVersion: '2026-07-28',
      clientCapabilities: { sampling: {} },
      clientInfo: { name: 'c', version: '1' },
      logLevel: 'warning',
    });
  });

  it('leaves out absent keys, without undefined values', () => {
    expect(readModernMeta(undefined)).toEqual({});
    expect(readModernMeta({})).toEqual({});
    const meta = readModernMeta({ _meta: { [MetaKey.ProtocolVersion]: '2026-07-28' } });
    expect(Object.keys(meta)).toEqual(['protocolVersion']);
  });

  it('throws InvalidParams when a key is present with the wrong shape', () => {
    const cases: unknown[] = [
      [],
      { _meta: 'x' },
      { _meta: { [MetaKey.ProtocolVersion]: 20260728 } },
      { _meta: { [MetaKey.ClientCapabilities]: [] } },
      { _meta: { [MetaKey.ClientInfo]: { name: 'c' } } },
      { _meta: { [MetaKey.LogLevel]: 'loud' } },
    ];
    for (const params of cases) {
      const error = thrown(() => readModernMeta(params));
      expect(error).toBeInstanceOf(JsonRpcError);
      expect((error as JsonRpcError).code).toBe(-32602);
    }
  });
});

describe('requireModernRevision', () => {
  it('returns a supported modern revision', () => {
    expect(requireModernRevision({ protocolVersion: '2026-07-28' })).toBe('2026-07-28');
  });

  it('throws UnsupportedProtocolVersion with the spec data shape when missing or unsupported', () => {
    const cases = [
      { meta: { protocolVersion: '1900-01-01' }, requested: '1900-01-01' },
      { meta: { protocolVersion: '2025-11-25' }, requested: '2025-11-25' },
      { meta: {}, requested: '' },
    ];
    for (const { meta, requested } of cases) {
      const error = thrown(() => requireModernRevision(meta));
      expect(error).toBeInstanceOf(JsonRpcError);
      const wire = (error as JsonRpcError).toWire();
      expect(wire.code).toBe(-32022);
      expect(wire.data).toEqual({ supported: [...PROTOCOL_REVISIONS].reverse(), requested });
      assertValidMessage('2026-07-28', { jsonrpc: '2.0', id: 1, error: wire });
    }
  });

  it('rejects a modern revision the server does not support', () => {
    const error = thrown(() =>
      requireModernRevision({ protocolVersion: '2026-07-28' }, ['2025-11-25']),
    );
    expect((error as JsonRpcError).data).toEqual({
      supported: ['2025-11-25'],
      requested: '2026-07-28',
    });
  });
});

describe('isCompleteResult', () => {
  it('treats a missing resultType as complete (legacy results)', () => {
    expect(isCompleteResult({ content: [] })).toBe(true);
    expect(isCompleteResult({ resultType: 'complete' })).toBe(true);
  });

  it('treats input_required, unknown types and non-objects as not complete', () => {
    expect(isCompleteResult({ resultType: 'input_required' })).toBe(false);
    expect(isCompleteResult({ resultType: 'later' })).toBe(false);
    expect(isCompleteResult(null)).toBe(false);
    expect(isInputRequiredResult({ resultType: 'input_required' })).toBe(true);
    expect(isInputRequiredResult({})).toBe(false);
  });
});
