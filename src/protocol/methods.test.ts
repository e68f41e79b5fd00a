import { describe, expect, expectTypeOf, it } from 'vitest';
import { specDefinitions } from '../../test/helpers/spec-schema.js';
import type { SchemaNode } from '../../test/helpers/spec-schema.js';
import {
  METHODS,
  directionOf,
  isCacheable,
  isInputRequest,
  isMethod,
  methodExists,
  methodsOf,
  nameParamOf,
} from './methods.js';
import type {
  Direction,
  MessageOf,
  MethodInfo,
  NotificationMethod,
  ParamsOf,
  RequestMethod,
  ResultOf,
} from './methods.js';
import type * as S20251125 from './schema/2025-11-25.js';
import type * as S20260728 from './schema/2026-07-28.js';
import { PROTOCOL_REVISIONS } from './version.js';
import type { ProtocolRevision } from './version.js';

const TABLE: Record<string, MethodInfo> = METHODS;

/** What a revision's schema says about one method. */
interface Derived {
  kind: 'request' | 'notification';
  types: Set<string>;
  clientSends: boolean;
  serverSends: boolean;
  inputRequest: boolean;
}

const refName = (node: SchemaNode): string => String(node['$ref']).split('/').at(-1) ?? '';

const methodConst = (def: SchemaNode | undefined): unknown =>
  (def?.['properties'] as Record<string, SchemaNode> | undefined)?.['method']?.['const'];

/** The definitions a union names: its anyOf members, its $ref, or itself when it is a message. */
function members(defs: Record<string, SchemaNode>, union: string): string[] {
  const def = defs[union];
  if (def === undefined) return [];
  if (Array.isArray(def['anyOf'])) return (def['anyOf'] as SchemaNode[]).map(refName);
  if (typeof def['$ref'] === 'string') return [refName(def)];
  return methodConst(def) === undefined ? [] : [union];
}

/** Every method of `revision`, derived from the `method` consts of its schema's definitions. */
function derive(revision: ProtocolRevision): Map<string, Derived> {
  const defs = specDefinitions(revision);
  const inUnion = (names: string[]) => new Set(names.flatMap((u) => members(defs, u)));
  const client = inUnion(['ClientRequest', 'ClientNotification']);
  const server = inUnion(['ServerRequest', 'ServerNotification', 'InputRequest']);
  const input = inUnion(['InputRequest']);
  const methods = new Map<string, Derived>();
  for (const [name, def] of Object.entries(defs)) {
    const method = methodConst(def);
    if (typeof method !== 'string') continue;
    const kind = /Request$/.test(name) ? 'request' : 'notification';
    expect(name, `${revision} ${name} has a method const`).toMatch(/(Request|Notification)$/);
    const entry = methods.get(method) ?? {
      kind,
      types: new Set(),
      clientSends: false,
      serverSends: false,
      inputRequest: false,
    };
    expect(entry.kind, `${revision} ${method}`).toBe(kind);
    entry.types.add(name);
    entry.clientSends ||= client.has(name);
    entry.serverSends ||= server.has(name);
    entry.inputRequest ||= input.has(name);
    methods.set(method, entry);
  }
  return methods;
}

function directionFrom(entry: Derived): Direction | undefined {
  if (entry.clientSends && entry.serverSends) return 'both';
  if (entry.clientSends) return 'client-to-server';
  if (entry.serverSends) return 'server-to-client';
  return undefined;
}

describe.each(PROTOCOL_REVISIONS)('METHODS against spec/%s/schema.json', (revision) => {
  const derived = derive(revision);
  const defs = specDefinitions(revision);

  it('has exactly the methods the schema defines', () => {
    expect(methodsOf(revision).sort()).toEqual([...derived.keys()].sort());
  });

  it('has the kind, message type, direction and delivery the schema gives', () => {
    for (const [method, entry] of derived) {
      const info = TABLE[method]!;
      expect(info.kind, method).toBe(entry.kind);
      expect([...entry.types], method).toContain(info.type);
      expect(directionOf(method, revision), method).toBe(directionFrom(entry));
      expect(isInputRequest(method, revision), method).toBe(entry.inputRequest);
    }
  });

  it('names result types that exist and match the request', () => {
    const clientResults = members(defs, 'ClientResult');
    const serverResults = members(defs, 'ServerResult');
    const inputResponses = members(defs, 'InputResponse');
    for (const method of methodsOf(revision)) {
      const info = TABLE[method]!;
      if (info.kind === 'notification') {
        expect(info.result, method).toBeUndefined();
        continue;
      }
      const result = info.result!;
      expect(Object.hasOwn(defs, result), `${revision} defines ${result}`).toBe(true);
      const ownResult = info.type.replace(/Request$/, 'Result');
      // EmptyResult only where the request has no result type of its own.
      expect(result, method).toBe(Object.hasOwn(defs, ownResult) ? ownResult : 'EmptyResult');
      const direction = directionOf(method, revision);
      const senders = result === 'EmptyResult' ? ['Result', 'EmptyResult'] : [result];
      if (direction !== 'server-to-client') {
        expect(
          senders.some((r) => serverResults.includes(r)),
          method,
        ).toBe(true);
      }
      if (direction !== 'client-to-server') {
        const results = [...clientResults, ...inputResponses];
        expect(
          senders.some((r) => results.includes(r)),
          method,
        ).toBe(true);
      }
      const response = defs[info.type.replace(/Request$/, 'ResultResponse')];
      if (response !== undefined) {
        const node = (response['properties'] as Record<string, SchemaNode>)['result']!;
        const refs = Array.isArray(node['anyOf']) ? (node['anyOf'] as SchemaNode[]) : [node];
        expect(refs.map(refName), method).toContain(result);
      }
    }
  });
});

describe('per-method facts of 2026-07-28', () => {
  const defs = specDefinitions('2026-07-28');

  it('marks cacheable exactly the methods whose result carries ttlMs (CacheableResult)', () => {
    for (const method of methodsOf('2026-07-28')) {
      const info = TABLE[method]!;
      const result = info.result === undefined ? undefined : defs[info.result];
      const properties = result?.['properties'] as Record<string, unknown> | undefined;
      expect(isCacheable(method), method).toBe(properties?.['ttlMs'] !== undefined);
    }
  });

  it('names, for Mcp-Name, a required string field of the request params', () => {
    for (const method of methodsOf('2026-07-28')) {
      const field = nameParamOf(method);
      if (field === undefined) continue;
      const params = defs[TABLE[method]!.type.replace(/Request$/, 'RequestParams')]!;
      expect(params['required'], method).toContain(field);
    }
    expect(nameParamOf('tools/call')).toBe('name');
    expect(nameParamOf('resources/read')).toBe('uri');
    expect(nameParamOf('toString')).toBeUndefined();
  });
});

describe('methodExists', () => {
  it('follows the revisions each method belongs to', () => {
    expect(methodExists('ping', '2025-11-25')).toBe(true);
    expect(methodExists('ping', '2026-07-28')).toBe(false);
    expect(methodExists('logging/setLevel', '2024-11-05')).toBe(true);
    expect(methodExists('logging/setLevel', '2026-07-28')).toBe(false);
    expect(methodExists('server/discover', '2026-07-28')).toBe(true);
    expect(methodExists('server/discover', '2025-11-25')).toBe(false);
    expect(methodExists('subscriptions/listen', '2026-07-28')).toBe(true);
    expect(methodExists('subscriptions/listen', '2025-11-25')).toBe(false);
    expect(methodExists('initialize', '2025-11-25')).toBe(true);
    expect(methodExists('initialize', '2026-07-28')).toBe(false);
    expect(methodExists('elicitation/create', '2025-03-26')).toBe(false);
  });

  it('knows no other names, including inherited object keys', () => {
    expect(methodExists('tools/unknown', '2025-11-25')).toBe(false);
    expect(methodExists('toString', '2025-11-25')).toBe(false);
    expect(isMethod('constructor')).toBe(false);
    expect(isMethod('tools/call')).toBe(true);
    expect(directionOf('toString', '2025-11-25')).toBeUndefined();
  });

  it('reports direction changes between revisions', () => {
    expect(directionOf('notifications/progress', '2025-11-25')).toBe('both');
    expect(directionOf('notifications/progress', '2026-07-28')).toBe('server-to-client');
    expect(directionOf('ping', '2026-07-28')).toBeUndefined();
  });
});

describe('type maps', () => {
  it('use the 2026-07-28 types for methods it defines', () => {
    expectTypeOf<ResultOf<'tools/call'>>().toEqualTypeOf<S20260728.CallToolResult>();
    expectTypeOf<ParamsOf<'tools/call'>>().toEqualTypeOf<S20260728.CallToolRequestParams>();
    expectTypeOf<MessageOf<'tools/call'>>().toEqualTypeOf<S20260728.CallToolRequest>();
    expectTypeOf<ResultOf<'server/discover'>>().toEqualTypeOf<S20260728.DiscoverResult>();
    expectTypeOf<
      ParamsOf<'notifications/progress'>
    >().toEqualTypeOf<S20260728.ProgressNotificationParams>();
  });

  it('use the 2025-11-25 types for methods 2026-07-28 dropped', () => {
    expectTypeOf<ResultOf<'ping'>>().toEqualTypeOf<S20251125.EmptyResult>();
    expectTypeOf<ResultOf<'initialize'>>().toEqualTypeOf<S20251125.InitializeResult>();
    expectTypeOf<ParamsOf<'logging/setLevel'>>().toEqualTypeOf<S20251125.SetLevelRequestParams>();
    expectTypeOf<ResultOf<'tasks/get'>>().toEqualTypeOf<S20251125.GetTaskResult>();
  });

  it('split methods into requests and notifications', () => {
    expectTypeOf<'tools/call'>().toExtend<RequestMethod>();
    expectTypeOf<'notifications/progress'>().not.toExtend<RequestMethod>();
    expectTypeOf<'notifications/progress'>().toExtend<NotificationMethod>();
    expectTypeOf<'ping'>().not.toExtend<NotificationMethod>();
  });
});
