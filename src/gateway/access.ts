// Who sees and calls what, recorded: one server middleware per endpoint that applies the
// config's policies to the caller (src/gateway/principal.ts) and writes the audit log
// (./audit.ts). Lists lose what the caller may not see; a call of a hidden tool, prompt or
// resource gets the error of one the endpoint does not serve; a call whose arguments a policy
// refuses gets an `isError` result saying so. Policies and audit log are swapped by a reload;
// while there are neither, the middleware costs one check.
import { RETRY_AFTER_META } from './limits/index.js';
import { JsonRpcError } from '../jsonrpc/errors.js';
import { invalidParams, resourceNotFound } from '../protocol/errors.js';
import type { MiddlewareContext, RequestMiddleware } from '../server/index.js';
import type { AuditRecord, AuditSink } from './audit.js';
import { argumentsHash, auditTime } from './audit.js';
import type { AuthInfo } from '../protocol/auth.js';
import type { EndpointLookup, Origin, Visible } from './endpoint-types.js';
import type { PolicyRule } from './policy/config.js';
import { DEFAULT_ENDPOINT } from './policy/config.js';
import type { PolicyView } from './policy/policy.js';
import { Policy, refusedArguments } from './policy/policy.js';
import type { Principal } from './principal.js';
import { principalOf } from './principal.js';

/** What an endpoint's access control is made of (at first: a reload swaps all but the name). */
export interface AccessSettings {
  /** The endpoint's name (`''`: the default one). */
  readonly endpoint: string;
  /** The config's policies; undefined: everything is visible to everyone. */
  readonly policy: readonly PolicyRule[] | undefined;
  readonly audit: AuditSink | undefined;
  /** Whether audit records carry the arguments themselves (else only their hash). */
  readonly auditArguments: boolean;
}

/** An endpoint's access control: its middleware, and what a caller's searches may see. */
export interface Access {
  middleware(lookup: EndpointLookup): readonly RequestMiddleware[];
  /**
   * The upstream tools the caller of `ctx` may see: one function per principal kind (what the
   * budget's decisions are remembered by); it returns undefined while no policy is in force.
   */
  readonly visible: (ctx: { readonly auth: AuthInfo | undefined }) => Visible | undefined;
  /** Decides by `policy` from the next request on (hot reload). */
  setPolicy(policy: readonly PolicyRule[] | undefined): void;
  /**
   * Records calls to `audit` from now on (hot reload): a call that arrived while there was an
   * audit log is written to the one in force when it ends; one that arrived without, nowhere.
   */
  setAudit(audit: AuditSink | undefined, auditArguments: boolean): void;
}

type Kind = 'tool' | 'prompt' | 'resource';

/** The policy and audit log in force (swapped by a reload). */
interface AccessState {
  policy: Policy | undefined;
  audit: AuditSink | undefined;
  auditArguments: boolean;
}

/** Makes the access control of one endpoint (policies compiled once, here). */
export function accessMiddleware(settings: AccessSettings): Access {
  const compile = (rules: readonly PolicyRule[] | undefined) =>
    rules === undefined ? undefined : new Policy(rules, settings.endpoint);
  const state: AccessState = {
    policy: compile(settings.policy),
    audit: settings.audit,
    auditArguments: settings.auditArguments,
  };
  const endpoint = settings.endpoint || DEFAULT_ENDPOINT;
  // One function per view (a view is one per set of applying rules, see policy.ts).
  const visibles = new WeakMap<PolicyView, Visible>();
  const visible = (ctx: { readonly auth: AuthInfo | undefined }): Visible | undefined => {
    const view = state.policy?.viewOf(principalOf(ctx));
    if (view === undefined) return undefined;
    let sees = visibles.get(view);
    if (sees === undefined) {
      sees = (origin) => view.tool(origin.upstream, origin.name) !== undefined;
      visibles.set(view, sees);
    }
    return sees;
  };
  return {
    visible,
    middleware: (lookup) => [guard(endpoint, state, lookup)],
    setPolicy(policy) {
      state.policy = compile(policy);
    },
    setAudit(audit, auditArguments) {
      state.audit = audit;
      state.auditArguments = auditArguments;
    },
  };
}

function guard(endpoint: string, state: AccessState, lookup: EndpointLookup): RequestMiddleware {
  const viewOf = (ctx: MiddlewareContext) => state.policy?.viewOf(principalOf(ctx));
  const filter = (ctx: MiddlewareContext, next: () => unknown, [field, keep]: [string, Keep]) => {
    const view = viewOf(ctx);
    if (view === undefined) return next();
    const result = next();
    return result instanceof Promise
      ? result.then((value) => filtered(value, field, (item) => keep(view, item)))
      : filtered(result, field, (item) => keep(view, item));
  };
  return (ctx, next) => {
    // Neither policies nor an audit log (yet): nothing to decide or record.
    if (state.policy === undefined && state.audit === undefined) return next();
    switch (ctx.method) {
      case 'tools/list':
        return filter(ctx, next, [
          'tools',
          (view, item) => {
            const origin = lookup.tool(String(item['name']));
            return origin === undefined || view.tool(origin.upstream, origin.name) !== undefined;
          },
        ]);
      case 'prompts/list':
        return filter(ctx, next, [
          'prompts',
          (view, item) => seen(view, 'prompt', lookup.prompt(String(item['name']))),
        ]);
      case 'resources/list':
        return filter(ctx, next, [
          'resources',
          (view, item) => seen(view, 'resource', lookup.resource(String(item['uri']))),
        ]);
      case 'resources/templates/list':
        return filter(ctx, next, [
          'resourceTemplates',
          (view, item) => seen(view, 'resource', lookup.template(String(item['uriTemplate']))),
        ]);
      case 'tools/call':
        return call({ ctx, next, kind: 'tool', endpoint, state, view: viewOf(ctx), lookup });
      case 'prompts/get':
        return call({ ctx, next, kind: 'prompt', endpoint, state, view: viewOf(ctx), lookup });
      case 'resources/read':
        return call({ ctx, next, kind: 'resource', endpoint, state, view: viewOf(ctx), lookup });
      case 'resources/subscribe':
      case 'completion/complete':
        refuseHidden(ctx, viewOf(ctx), lookup);
        return next();
      default:
        return next();
    }
  };
}

type Keep = (view: PolicyView, item: Record<string, unknown>) => boolean;

/** Whether an entry is visible: the gateway's own always, an upstream's as the view says. */
function seen(view: PolicyView, kind: Kind, origin: Origin | undefined): boolean {
  if (origin === undefined) return true;
  if (kind === 'tool') return view.tool(origin.upstream, origin.name) !== undefined;
  if (kind === 'prompt') return view.prompt(origin.upstream, origin.name);
  return view.resource(origin.upstream, origin.name);
}

/** `result` less the items of its list `field` that `keep` rejects (itself when none is). */
export function filtered(
  result: unknown,
  field: string,
  keep: (item: Record<string, unknown>) => boolean,
): unknown {
  if (typeof result !== 'object' || result === null) return result;
  const items = (result as Record<string, unknown>)[field];
  if (!Array.isArray(items)) return result;
  const kept = (items as Record<string, unknown>[]).filter(keep);
  // Nothing left out: the result as it is, whose text the server keeps (issue #44).
  return kept.length === items.length ? result : { ...result, [field]: kept };
}

/** A subscription or a completion naming a hidden prompt or resource: its not-found error. */
function refuseHidden(
  ctx: MiddlewareContext,
  view: PolicyView | undefined,
  lookup: EndpointLookup,
): void {
  if (view === undefined) return;
  const { params } = ctx;
  const ref = params['ref'] as { type?: unknown; name?: unknown; uri?: unknown } | undefined;
  if (ctx.method === 'resources/subscribe' && typeof params['uri'] === 'string') {
    if (!seen(view, 'resource', lookup.resource(params['uri']))) {
      throw resourceNotFound(params['uri'], ctx.era);
    }
  } else if (ref?.type === 'ref/prompt' && typeof ref.name === 'string') {
    if (!seen(view, 'prompt', lookup.prompt(ref.name))) {
      throw invalidParams(`unknown prompt ${JSON.stringify(ref.name)}`);
    }
  } else if (ref?.type === 'ref/resource' && typeof ref.uri === 'string') {
    if (!seen(view, 'resource', lookup.template(ref.uri))) throw resourceNotFound(ref.uri, ctx.era);
  }
}

interface CallInput {
  readonly ctx: MiddlewareContext;
  readonly next: () => unknown;
  readonly kind: Kind;
  readonly endpoint: string;
  readonly state: AccessState;
  readonly view: PolicyView | undefined;
  readonly lookup: EndpointLookup;
}

/** One call: decided by the policy, then served, and recorded. */
function call(input: CallInput): unknown {
  const { ctx, next, kind, state, view, lookup } = input;
  const called = ctx.params[kind === 'resource' ? 'uri' : 'name'];
  if (typeof called !== 'string') return next();
  const origin =
    kind === 'tool'
      ? lookup.tool(called)
      : kind === 'prompt'
        ? lookup.prompt(called)
        : lookup.resource(called);
  const args = (kind === 'resource' ? undefined : ctx.params['arguments']) ?? {};
  const record = state.audit === undefined ? undefined : recorder(input, { called, origin, args });
  if (view !== undefined && origin !== undefined) {
    if (!seen(view, kind, origin)) {
      record?.({ decision: 'deny', reason: 'hidden', outcome: 'error', code: -32602 });
      throw kind === 'tool'
        ? invalidParams(`unknown tool ${JSON.stringify(called)}`)
        : kind === 'prompt'
          ? invalidParams(`unknown prompt ${JSON.stringify(called)}`)
          : resourceNotFound(called, ctx.era);
    }
    const grant = kind === 'tool' ? view.tool(origin.upstream, origin.name) : undefined;
    const refused =
      grant === undefined ? undefined : refusedArguments(grant, args as Record<string, unknown>);
    if (refused !== undefined) {
      record?.({ decision: 'deny', reason: 'arguments', outcome: 'refused' });
      return {
        content: [{ type: 'text', text: `This gateway refused the call: ${refused}.` }],
        isError: true,
      };
    }
  }
  if (record === undefined) return next();
  // Not an upstream's (the gateway's own search_tools, status): allowed, unless not served at all.
  const failed = (error: unknown) => {
    const code = codeOf(error);
    const unknown = origin === undefined && (code === -32602 || code === -32002);
    record({ decision: unknown ? 'unknown' : 'allow', outcome: 'error', code });
  };
  let result: unknown;
  try {
    result = next();
  } catch (error) {
    failed(error);
    throw error;
  }
  const done = (value: unknown) => {
    const result = value as { isError?: unknown; _meta?: Record<string, unknown> } | null;
    const limited = result?._meta?.[RETRY_AFTER_META] !== undefined;
    const isError = result?.isError === true;
    record({
      decision: 'allow',
      outcome: limited ? 'rate-limited' : isError ? 'tool-error' : 'ok',
    });
    return value;
  };
  if (!(result instanceof Promise)) return done(result);
  return result.then(done, (error: unknown) => {
    failed(error);
    throw error;
  });
}

type Ending = Pick<AuditRecord, 'decision' | 'reason' | 'outcome' | 'code'>;

/** An audit record while it is being written (its fields added in their order in the line). */
type Building = { -readonly [K in keyof AuditRecord]?: AuditRecord[K] };

/** Writes the audit record of one call when it ends (its duration counted from here). */
function recorder(
  input: CallInput,
  call: { called: string; origin: Origin | undefined; args: unknown },
): (ending: Ending) => void {
  const { ctx, kind, state, view } = input;
  const started = performance.now();
  const time = auditTime();
  return (ending) => {
    const { origin } = call;
    // Fields added one by one in a fixed order (no spreads): records share their shapes.
    const record: Building = {
      time,
      principal: auditPrincipal(principalOf(ctx)),
      endpoint: input.endpoint,
      method: ctx.method as AuditRecord['method'],
    };
    if (origin !== undefined) {
      record.upstream = origin.upstream;
      record[kind] = origin.name;
    }
    record.called = call.called;
    record.decision = ending.decision;
    if (ending.reason !== undefined) record.reason = ending.reason;
    record.outcome = ending.outcome;
    if (ending.code !== undefined) record.code = ending.code;
    if (view !== undefined) record.rules = view.rules;
    record.durationMs = Math.round((performance.now() - started) * 1000) / 1000;
    record.argumentsHash = argumentsHash(call.args);
    if (state.auditArguments) record.arguments = call.args;
    state.audit?.(record as AuditRecord);
  };
}

/** Each principal's `principal` field of a record, made once (frozen: records share it). */
const auditPrincipals = new WeakMap<Principal, AuditRecord['principal']>();

function auditPrincipal(principal: Principal): AuditRecord['principal'] {
  let field = auditPrincipals.get(principal);
  if (field === undefined) {
    field = Object.freeze({
      ...(principal.subject === undefined ? {} : { subject: principal.subject }),
      ...(principal.clientId === undefined ? {} : { clientId: principal.clientId }),
      source: principal.source,
    });
    auditPrincipals.set(principal, field);
  }
  return field;
}

function codeOf(error: unknown): number {
  return error instanceof JsonRpcError ? error.code : -32603;
}
