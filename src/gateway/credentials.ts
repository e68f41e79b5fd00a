// Upstream credentials (issue #40): what the gateway presents to an HTTP upstream, never the
// downstream client's own token (spec basic/authorization, "token passthrough" is forbidden).
// Per server, the config's `credentials`:
// - `{"type": "env", "env": "DOCS_TOKEN", "header"?: "authorization", "scheme"?: "Bearer"}`: a
//   static secret from the gateway's environment, on every request;
// - `{"type": "client_credentials", "clientId", "clientSecretEnv", "scope"?}`: the gateway's own
//   token from the upstream's authorization server (mcpkit's OAuth client: discovery from the
//   upstream's 401, refresh, step-up), on every request;
// - `{"type": "token_exchange", "clientId", "clientSecretEnv", "tokenEndpoint", "audience"?,
//   "scope"?}`: each tool call, resource read and prompt get carries a token for the upstream
//   obtained by RFC 8693 token exchange of the caller's token (so the upstream sees who calls),
//   the gateway's own client-credentials token on its other requests (initialize, lists, pings,
//   completions, subscriptions).
// Secrets are read from the environment when the gateway starts (or reloads), and every value
// the gateway holds is taken out of its events and status.
import { createHash } from 'node:crypto';
import process from 'node:process';
import { createOAuthClient } from '../client/index.js';
import type { OAuthHttp } from '../client/oauth/http.js';
import { oauthFailure, request } from '../client/oauth/http.js';
import type { HandlerContext } from '../server/index.js';
import { authorizedFetch } from '../transports/http/client/authorized.js';
import type { ServerConfig } from '../catalogue/index.js';
import type { UpstreamFetch } from './upstream.js';
import { messageOf } from '../internal/message-of.js';

/** One upstream's `credentials`, as the config names them (secrets by environment variable). */
export type CredentialSpec =
  | {
      readonly type: 'env';
      readonly env: string;
      readonly header: string;
      /** Put before the value (`Bearer`); '' for none. */
      readonly scheme: string;
    }
  | {
      readonly type: 'client_credentials' | 'token_exchange';
      readonly clientId: string;
      readonly clientSecretEnv: string;
      readonly scope?: string;
      /** token_exchange: the authorization server's token endpoint. */
      readonly tokenEndpoint?: string;
      /** token_exchange: the `audience` asked for. Default: the upstream's URL (as `resource`). */
      readonly audience?: string;
    };

const TYPES = ['env', 'client_credentials', 'token_exchange'];

/** Reads a server's `credentials` field; throws TypeError naming what is wrong. */
export function parseCredentials(value: unknown, bad: (what: string) => TypeError): CredentialSpec {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw bad('has "credentials" that is not an object');
  }
  const spec = value as Record<string, unknown>;
  const type = spec['type'];
  if (typeof type !== 'string' || !TYPES.includes(type)) {
    throw bad(`has "credentials.type" that is not one of ${TYPES.join(', ')}`);
  }
  const allowed =
    type === 'env'
      ? ['type', 'env', 'header', 'scheme']
      : ['type', 'clientId', 'clientSecretEnv', 'scope', 'tokenEndpoint', 'audience'];
  const unknown = Object.keys(spec).find((key) => !allowed.includes(key));
  if (unknown !== undefined) {
    throw bad(`has an unknown field "credentials.${unknown}" (${allowed.join(', ')})`);
  }
  const text = (key: string, required: boolean): string | undefined => {
    const item = spec[key];
    if (item === undefined && !required) return undefined;
    if (typeof item !== 'string' || (item === '' && key !== 'scheme')) {
      throw bad(`has "credentials.${key}" that is not a non-empty string`);
    }
    return item;
  };
  if (type === 'env') {
    return {
      type,
      env: text('env', true) as string,
      header: (text('header', false) ?? 'authorization').toLowerCase(),
      scheme: text('scheme', false) ?? 'Bearer',
    };
  }
  const tokenEndpoint = text('tokenEndpoint', type === 'token_exchange');
  const [scope, audience] = [text('scope', false), text('audience', false)];
  return {
    type: type as 'client_credentials' | 'token_exchange',
    clientId: text('clientId', true) as string,
    clientSecretEnv: text('clientSecretEnv', true) as string,
    ...(scope === undefined ? {} : { scope }),
    ...(tokenEndpoint === undefined ? {} : { tokenEndpoint }),
    ...(audience === undefined ? {} : { audience }),
  };
}

/** The headers a tool call carries, or why the gateway could not obtain them. */
export type CallCredentials =
  { readonly headers?: Readonly<Record<string, string>> } | { readonly error: string };

/** What the gateway presents to one upstream: the fetch of its connection, and per call. */
export interface UpstreamCredentials {
  /** The upstream's fetch, authorizing every request. */
  readonly fetch: UpstreamFetch;
  /**
   * The headers of one request (a tool call, resource read or prompt get) made for `ctx`'s
   * caller (token exchange); never rejects.
   */
  forCall(ctx: Pick<HandlerContext, 'transport'>): Promise<CallCredentials>;
}

/** Most exchanged tokens kept per upstream (by the caller's token). */
const MAX_EXCHANGED = 1000;
/** An exchanged token is used until this long before it expires. */
const EXPIRY_MARGIN_MS = 30_000;
const TOKEN_EXCHANGE = 'urn:ietf:params:oauth:grant-type:token-exchange';
const ACCESS_TOKEN = 'urn:ietf:params:oauth:token-type:access_token';

/**
 * Secrets: every value the gateway's credentials hold (from the environment, issued to it), to
 * take out of what it shows (events, status, errors). Bounded: the oldest issued tokens go.
 */
export class Secrets {
  readonly #values = new Set<string>();

  add(value: string): void {
    if (value.length < 8) return; // too short to hide without hiding ordinary words
    this.#values.add(value);
    if (this.#values.size > 4 * MAX_EXCHANGED) {
      const oldest = this.#values.values().next();
      if (!oldest.done) this.#values.delete(oldest.value);
    }
  }

  /** `value` (a string or anything JSON) with every secret in it replaced by `[redacted]`. */
  redact<T>(value: T): T {
    if (this.#values.size === 0) return value;
    const text = JSON.stringify(value);
    let out = text;
    for (const secret of this.#values) {
      if (out.includes(secret)) out = out.split(secret).join('[redacted]');
    }
    return out === text ? value : (JSON.parse(out) as T);
  }
}

/**
 * The credentials of upstream `name` (an HTTP server at `url`) per `spec`, its requests made
 * with `base`. Throws TypeError when a secret's environment variable is not set (naming the
 * variable, never a value).
 */
export function upstreamCredentials(
  { name, url, spec }: { name: string; url: string; spec: CredentialSpec },
  base: UpstreamFetch,
  secrets: Secrets,
): UpstreamCredentials {
  const env = (variable: string): string => {
    const value = process.env[variable];
    if (value === undefined || value === '') {
      throw new TypeError(`server "${name}": the environment variable ${variable} is not set`);
    }
    secrets.add(value);
    return value;
  };
  if (spec.type === 'env') {
    const value = env(spec.env);
    const header = spec.scheme === '' ? value : `${spec.scheme} ${value}`;
    const fetch: UpstreamFetch = (input, init) => {
      const headers = new Headers(init.headers);
      headers.set(spec.header, header);
      return base(input, { ...init, headers });
    };
    return { fetch, forCall: () => Promise.resolve({}) };
  }
  const client = { client_id: spec.clientId, client_secret: env(spec.clientSecretEnv) };
  const oauth = createOAuthClient({
    serverUrl: url,
    grant: { type: 'client_credentials' },
    client,
    ...(spec.scope === undefined ? {} : { scope: spec.scope }),
    dpop: false,
  });
  const own: UpstreamFetch = authorizedFetch(base, {
    headers: async (request) => {
      const headers = await oauth.headers(request);
      for (const value of Object.values(headers)) secrets.add(value.replace(/^\S+ /, ''));
      return headers;
    },
    refused: (refusal) => oauth.refused(refusal),
  });
  // A request that carries a call's exchanged token is sent as it is.
  const fetch: UpstreamFetch = (input, init) =>
    new Headers(init.headers).has('authorization') ? base(input, init) : own(input, init);
  if (spec.type === 'client_credentials') return { fetch, forCall: () => Promise.resolve({}) };
  const exchange = tokenExchange({ name, url, spec, client, secrets });
  return { fetch, forCall: exchange };
}

/**
 * The credentials of upstream `name`, when its entry has `credentials` (`spec`) and a URL;
 * throws as {@link upstreamCredentials} does.
 */
export function credentialsOf(
  {
    name,
    spec,
    server,
  }: { name: string; spec: CredentialSpec | undefined; server: ServerConfig | undefined },
  base: UpstreamFetch,
  secrets: Secrets,
): UpstreamCredentials | undefined {
  if (spec === undefined || server === undefined || !('url' in server)) return undefined;
  return upstreamCredentials({ name, url: server.url, spec }, base, secrets);
}

/** The RFC 8693 exchange of callers' tokens for upstream tokens, cached by caller token. */
function tokenExchange({
  name,
  url,
  spec,
  client,
  secrets,
}: {
  name: string;
  url: string;
  spec: Extract<CredentialSpec, { type: 'client_credentials' | 'token_exchange' }>;
  client: { client_id: string; client_secret: string };
  secrets: Secrets;
}): UpstreamCredentials['forCall'] {
  const cache = new Map<string, Promise<{ token: string; expiresAt: number }>>();
  const http: OAuthHttp = { fetch: (input, init) => fetch(input, init), timeoutMs: 10_000 };
  const endpoint = spec.tokenEndpoint as string;
  const exchange = async (subject: string) => {
    const body = new URLSearchParams({
      grant_type: TOKEN_EXCHANGE,
      subject_token: subject,
      subject_token_type: ACCESS_TOKEN,
      requested_token_type: ACCESS_TOKEN,
      resource: url,
    });
    if (spec.audience !== undefined) body.set('audience', spec.audience);
    if (spec.scope !== undefined) body.set('scope', spec.scope);
    const basic = Buffer.from(
      `${encodeURIComponent(client.client_id)}:${encodeURIComponent(client.client_secret)}`,
    ).toString('base64');
    const answer = await request(http, endpoint, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        accept: 'application/json',
        authorization: `Basic ${basic}`,
      },
      body: body.toString(),
    });
    const token = answer.body?.['access_token'];
    if (!answer.response.ok || typeof token !== 'string') {
      throw oauthFailure(`the token exchange at ${endpoint}`, answer);
    }
    secrets.add(token);
    const expiresIn = answer.body?.['expires_in'];
    const lifetimeMs = typeof expiresIn === 'number' && expiresIn > 0 ? expiresIn * 1000 : 300_000;
    return { token, expiresAt: Date.now() + lifetimeMs };
  };
  return async (ctx) => {
    const subject = bearerOf(ctx.transport?.headers?.['authorization']);
    if (subject === undefined) {
      return {
        error: `the server "${name}" behind this gateway needs the caller's identity (a bearer token), and this request has none`,
      };
    }
    const key = createHash('sha256').update(subject).digest('base64url');
    let entry = cache.get(key);
    const fresh = await entry?.catch(() => undefined);
    if (
      entry === undefined ||
      fresh === undefined ||
      fresh.expiresAt - EXPIRY_MARGIN_MS < Date.now()
    ) {
      entry = exchange(subject);
      cache.delete(key);
      cache.set(key, entry);
      if (cache.size > MAX_EXCHANGED) cache.delete(cache.keys().next().value as string);
    }
    try {
      const { token } = await entry;
      return { headers: { authorization: `Bearer ${token}` } };
    } catch (error) {
      cache.delete(key);
      const reason = secrets.redact(messageOf(error));
      return {
        error: `the gateway could not obtain a token for the server "${name}" behind it: ${reason}`,
      };
    }
  };
}

function bearerOf(header: string | undefined): string | undefined {
  const match = /^(?:Bearer|DPoP)\s+(\S+)$/i.exec(header ?? '');
  return match?.[1];
}
