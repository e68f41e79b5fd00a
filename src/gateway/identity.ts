// Identity from a fronting proxy: an HTTP middleware that takes the principal from headers the
// proxy sets (after its own authentication), for deployments where the proxy, not the gateway,
// speaks OAuth or SSO. Only safe behind a proxy that removes these headers from what clients
// send; a shared secret header, when configured, proves a request came through it.
import { timingSafeEqual } from 'node:crypto';
import type { AuthInfo } from '../protocol/auth.js';
import type { HttpMiddleware } from '../transports/http/index.js';
import { joined, refusedReply } from '../transports/http/server/exchange.js';
import { HEADER_SOURCE_CLAIM } from './principal.js';

/** Which headers carry the principal (lower-case names). Only `subject` is required. */
export interface TrustedHeaders {
  /** The header naming the subject (a user); a request without it is refused 401. */
  readonly subject: string;
  /** The header naming the client (an application). */
  readonly clientId?: string;
  /** The header listing the scopes, separated by spaces or commas. */
  readonly scopes?: string;
  /** Further claims by name: the header each is read from. */
  readonly claims?: Readonly<Record<string, string>>;
  /**
   * A header the proxy sets to a shared secret (`secret`); a request without the right value is
   * refused 401 before any other header is read.
   */
  readonly secretHeader?: string;
  /** The shared secret (from the environment: `secretEnv` in the config). */
  readonly secret?: string;
}

/**
 * The trusted-header middleware: sets `exchange.auth` to the principal the headers name (handlers
 * see it as `ctx.auth`, the gateway as `principalOf(ctx)`), or answers 401. Throws TypeError on
 * a secret header without a secret.
 */
export function trustedHeader(headers: TrustedHeaders): HttpMiddleware {
  if ((headers.secretHeader === undefined) !== (headers.secret === undefined)) {
    throw new TypeError('trusted headers: secretHeader and secret go together');
  }
  const secret = headers.secret === undefined ? undefined : Buffer.from(headers.secret);
  return (exchange, answer, next) => {
    const read = (name: string | undefined) =>
      name === undefined ? undefined : joined(exchange.headers[name])?.trim() || undefined;
    if (secret !== undefined) {
      const given = Buffer.from(read(headers.secretHeader) ?? '');
      if (given.length !== secret.length || !timingSafeEqual(given, secret)) {
        answer(refusedReply(401, 'unauthorized: the request did not come through the proxy'));
        return;
      }
    }
    const subject = read(headers.subject);
    if (subject === undefined) {
      answer(refusedReply(401, `unauthorized: the ${headers.subject} header is missing`));
      return;
    }
    const clientId = read(headers.clientId);
    const scopes = (read(headers.scopes) ?? '').split(/[\s,]+/).filter(Boolean);
    const claims: Record<string, unknown> = { [HEADER_SOURCE_CLAIM]: 'header', sub: subject };
    if (clientId !== undefined) claims['client_id'] = clientId;
    if (scopes.length > 0) claims['scope'] = scopes.join(' ');
    for (const [claim, header] of Object.entries(headers.claims ?? {})) {
      const value = read(header);
      if (value !== undefined) claims[claim] = value;
    }
    const auth: AuthInfo = { subject, clientId, scopes, expiresAt: undefined, claims };
    exchange.auth = auth;
    next(exchange, answer);
  };
}
