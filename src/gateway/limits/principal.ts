// Who a downstream request is made by, as the rate limits count it. A stand-in until the
// gateway's identity (issue #40 point 1) names principals: the verified token's subject, else
// its client id, else one shared "anonymous" principal for unauthenticated requests.
import type { HandlerContext } from '../../server/index.js';

/** The principal id a request's calls are counted under. */
export function principalId(ctx: Pick<HandlerContext, 'auth'>): string {
  const auth = ctx.auth;
  if (auth?.subject !== undefined) return `sub:${auth.subject}`;
  if (auth?.clientId !== undefined) return `client:${auth.clientId}`;
  return 'anonymous';
}
