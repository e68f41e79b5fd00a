// Who calls the gateway: the principal of a request, as policies, rate limits and the audit log
// see it. It is read from `ctx.auth`, which the HTTP transport sets: the bearer gate (an access
// token verified by mcpkit/auth) or the gateway's trusted-header middleware (./identity.ts).
import type { AuthInfo } from '../protocol/auth.js';
import { principalKey } from '../protocol/auth.js';

/** The claim the trusted-header middleware marks its principals with. */
export const HEADER_SOURCE_CLAIM = 'mcpkit:source';

/** The caller of a request, as the gateway's policies, limits and audit log see it. */
export interface Principal {
  /**
   * Who it is, as a key: JSON of [issuer, subject, client id] for a token or a trusted header,
   * `"anonymous"` without either (stdio, an open HTTP endpoint).
   */
  readonly key: string;
  /** `sub` of the token, or the trusted header's subject. */
  readonly subject: string | undefined;
  /** `client_id` (or `azp`) of the token, or the trusted header's client. */
  readonly clientId: string | undefined;
  /** The scopes granted. */
  readonly scopes: readonly string[];
  /** Every claim of the token (or those the trusted headers carried). */
  readonly claims: Readonly<Record<string, unknown>>;
  /** How it was established. */
  readonly source: 'token' | 'header' | 'anonymous';
}

/** The principal of a request that carries no identity (stdio, an open HTTP endpoint). */
export const ANONYMOUS: Principal = Object.freeze({
  key: 'anonymous',
  subject: undefined,
  clientId: undefined,
  scopes: Object.freeze([]),
  claims: Object.freeze({}),
  source: 'anonymous',
});

/** Principals by the AuthInfo they were made of: a verifier hands out one object per token. */
const made = new WeakMap<AuthInfo, Principal>();

/**
 * The principal of a request: of `ctx.auth` (a server middleware's or a handler's context), or
 * {@link ANONYMOUS}. Made once per AuthInfo object (the JWT verifier keeps one per token), so
 * a call costs a WeakMap read.
 */
export function principalOf(ctx: { readonly auth: AuthInfo | undefined }): Principal {
  const auth = ctx.auth;
  if (auth === undefined) return ANONYMOUS;
  let principal = made.get(auth);
  if (principal === undefined) {
    principal = Object.freeze({
      key: principalKey(auth) ?? 'anonymous',
      subject: auth.subject,
      clientId: auth.clientId,
      scopes: auth.scopes,
      claims: auth.claims,
      source: auth.claims[HEADER_SOURCE_CLAIM] === 'header' ? 'header' : 'token',
    });
    made.set(auth, principal);
  }
  return principal;
}
