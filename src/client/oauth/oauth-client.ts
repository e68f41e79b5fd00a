// The OAuth client of an MCP server (spec basic/authorization, 2025-03-26 through 2026-07-28):
// an HttpAuthorizer for the HTTP transports. It adds the stored token to every request (with a
// DPoP proof when the token is bound), and on a refusal runs what the refusal calls for: a new
// DPoP nonce, a refresh, or discovery and a new grant (the authorization code with PKCE, client
// credentials, JWT bearer or enterprise token exchange), with step-up on `insufficient_scope`
// and a limit on attempts. One flow runs at a time; concurrent refusals wait for it.
import type { AuthorizedRequest, HttpAuthorizer, RefusedRequest } from '../../protocol/auth.js';
import { AuthorizationError, parseChallenges } from '../../protocol/auth.js';
import { tryJose, needJose } from './crypto.js';
import type { Discovered } from './discovery.js';
import { discover } from './discovery.js';
import type { DpopKey } from './dpop.js';
import { DPOP_ALG, DpopNonces, dpopKey, newDpopKey } from './dpop.js';
import type { OAuthHttp } from './http.js';
import { oauthFailure, request } from './http.js';
import { authorizationCode } from './authorization-code.js';
import { clientKey } from './registration.js';
import { memoryStore } from './store.js';
import { requestToken } from './token.js';
import type {
  AuthorizationServerMetadata,
  OAuthClientInformation,
  OAuthClientOptions,
  OAuthStore,
  OAuthTokens,
} from './types.js';

/**
 * OAuthClient authorizes the requests of one MCP server; pass it as the `auth` option of an
 * HTTP client transport. `authorize()` runs the flow ahead of any request (a `login` command);
 * `logout()` forgets the tokens and registrations it stored.
 */
export interface OAuthClient extends HttpAuthorizer {
  /** The MCP server. */
  readonly serverUrl: URL;
  /** Runs discovery and the grant now, whether or not a token is stored. */
  authorize(options?: { scope?: string }): Promise<OAuthTokens>;
  /** The stored tokens, if any. */
  tokens(): Promise<OAuthTokens | undefined>;
  /** Forgets the tokens of this server and the client registrations made for it. */
  logout(): Promise<void>;
}

/** Creates the OAuth client of the MCP server at `options.serverUrl`. */
export function createOAuthClient(options: OAuthClientOptions): OAuthClient {
  return new OAuth(options);
}

const DEFAULT_TIMEOUT_MS = 30_000;
/** The most authorizations one request may go through (maxAuthorizations' ceiling). */
const MAX_AUTHORIZATIONS = 10;
/** Refresh this long before expiry. */
const EXPIRY_MARGIN_MS = 30_000;

class OAuth implements OAuthClient {
  readonly serverUrl: URL;
  readonly #options: OAuthClientOptions;
  readonly #store: OAuthStore;
  readonly #http: OAuthHttp;
  readonly #nonces = new DpopNonces();
  readonly #tokenKey: string;
  /** Every scope asked for so far: a step-up asks for the union (SEP-2350). */
  readonly #requested = new Set<string>();
  #flow: Promise<boolean> | undefined;
  #key: { id: string; key: DpopKey } | undefined;

  constructor(options: OAuthClientOptions) {
    this.serverUrl = new URL(options.serverUrl);
    this.serverUrl.hash = '';
    this.#options = options;
    this.#store = options.store ?? memoryStore();
    this.#http = {
      fetch: options.fetch ?? ((url, init) => fetch(url, init)),
      timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    };
    this.#tokenKey = `tokens ${this.serverUrl.href}`;
    const max = options.maxAuthorizations ?? 3;
    if (!Number.isInteger(max) || max < 1 || max > MAX_AUTHORIZATIONS) {
      throw new TypeError(
        `maxAuthorizations must be an integer from 1 to ${String(MAX_AUTHORIZATIONS)}, got ${String(max)}`,
      );
    }
  }

  async tokens(): Promise<OAuthTokens | undefined> {
    const value = await this.#store.get(this.#tokenKey);
    return isTokens(value) ? value : undefined;
  }

  async headers(request: AuthorizedRequest): Promise<Readonly<Record<string, string>>> {
    // The token is for this server: never on a request anywhere else.
    if (new URL(request.url).origin !== this.serverUrl.origin) return {};
    if (this.#flow !== undefined) await this.#flow.catch(() => false);
    let tokens = await this.tokens();
    if (tokens === undefined) return {};
    if (tokens.expires_at !== undefined && tokens.expires_at - EXPIRY_MARGIN_MS < Date.now()) {
      tokens = await this.#single(() => this.#refreshStored()).then(() => this.tokens());
      if (tokens === undefined) return {};
    }
    return this.#present(tokens, request);
  }

  async refused(refusal: RefusedRequest): Promise<boolean> {
    const max = this.#options.maxAuthorizations ?? 3;
    const challenge = challengeOf(refusal.wwwAuthenticate);
    const error = challenge.error;
    // RFC 9449 section 9: the resource server wants its nonce in the proof; no new token.
    if (error === 'use_dpop_nonce') return this.#nonces.set(refusal.url, refusal.dpopNonce);
    if (refusal.status === 403 && error !== 'insufficient_scope') return false;
    if (refusal.status === 403) {
      const notGranted = await this.#notGranted(challenge);
      if (notGranted !== undefined) throw notGranted;
    }
    if (refusal.attempt >= max) {
      if (refusal.status === 403) return false;
      throw new AuthorizationError(
        'retry_limit',
        `${this.serverUrl.href} still refused after ${String(max)} authorizations; giving up`,
      );
    }
    return this.#single(() => this.#recover(refusal.status, challenge));
  }

  authorize(options: { scope?: string } = {}): Promise<OAuthTokens> {
    const challenge: Challenge = options.scope === undefined ? {} : { scope: options.scope };
    return this.#single(async () => {
      await this.#grant(await this.#discover(challenge.metadata), challenge, false);
      return true;
    }).then(async () => {
      const tokens = await this.tokens();
      if (tokens === undefined) throw new AuthorizationError('no_token', 'no token was stored');
      return tokens;
    });
  }

  async logout(): Promise<void> {
    const tokens = await this.tokens();
    await this.#store.set(this.#tokenKey, undefined);
    if (tokens !== undefined) await this.#store.set(clientKey(tokens.issuer), undefined);
    this.#requested.clear();
  }

  /**
   * An `insufficient_scope` 403 for scopes this client asked for and was not granted (the
   * authorization server narrowed them): a new sign-in would ask for the same, so the error says
   * what is needed and what was granted. Undefined when that cannot be told (the token response
   * named no scope) or a scope was not asked for yet.
   */
  async #notGranted(challenge: Challenge): Promise<AuthorizationError | undefined> {
    const needed = (challenge.scope ?? '').split(/\s+/).filter((s) => s !== '');
    const granted = (await this.tokens())?.scope;
    if (needed.length === 0 || granted === undefined) return undefined;
    const have = new Set(granted.split(/\s+/));
    const missing = needed.filter((scope) => !have.has(scope));
    if (missing.length === 0 || !missing.every((scope) => this.#requested.has(scope))) {
      return undefined;
    }
    return new AuthorizationError(
      'scope_not_granted',
      `${this.serverUrl.href} needs the scope${missing.length === 1 ? '' : 's'} "${missing.join(' ')}", which the authorization server did not grant (needed: "${needed.join(' ')}"; granted: "${granted}"); signing in again would ask for the same`,
    );
  }

  /** Runs `work` unless a flow runs; then waits for that one instead. */
  #single(work: () => Promise<boolean>): Promise<boolean> {
    if (this.#flow !== undefined) return this.#flow;
    const flow = work().finally(() => {
      this.#flow = undefined;
    });
    this.#flow = flow;
    return flow;
  }

  /** After a 401 or an `insufficient_scope` 403: refresh if that can help, else a new grant. */
  async #recover(status: number, challenge: Challenge): Promise<boolean> {
    const discovered = await this.#discover(challenge.metadata);
    const tokens = await this.tokens();
    const sameServer = tokens?.issuer === discovered.server.issuer;
    if (status === 401 && sameServer && tokens.refresh_token !== undefined) {
      if (await this.#refresh(discovered, tokens)) return true;
    }
    await this.#grant(discovered, challenge, status === 403 && sameServer);
    return true;
  }

  #discover(metadataUrl: string | undefined): Promise<Discovered> {
    const known = this.#options.authorizationServer;
    if (known !== undefined) {
      return Promise.resolve({
        resource: undefined,
        scopesSupported: undefined,
        dpop: false,
        server: known,
      });
    }
    return discover(this.#http, this.serverUrl, metadataUrl);
  }

  /** Runs the configured grant and stores its tokens. */
  async #grant(discovered: Discovered, challenge: Challenge, stepUp: boolean): Promise<void> {
    const { server } = discovered;
    const scope = this.#scope(discovered, challenge, stepUp);
    const dpop = await this.#dpopFor(server, discovered.dpop || challenge.dpop === true);
    const grant = this.#options.grant ?? { type: 'authorization_code' };
    const common = { resource: discovered.resource, scope };
    let params: Record<string, string | undefined>;
    let client: OAuthClientInformation | undefined;
    switch (grant.type) {
      case 'authorization_code': {
        const redirect = await authorizationCode(this.#http, {
          discovered,
          scope,
          serverUrl: this.serverUrl,
          options: this.#options,
          identity: this.#identity(),
        });
        client = redirect.client;
        params = {
          grant_type: 'authorization_code',
          ...redirect.params,
          resource: discovered.resource,
        };
        break;
      }
      case 'client_credentials':
        client = this.#preRegistered('the client credentials grant');
        params = { grant_type: 'client_credentials', ...common };
        break;
      case 'jwt_bearer':
        client = this.#options.client;
        params = { grant_type: JWT_BEARER, assertion: await grant.assertion(), ...common };
        break;
      case 'token_exchange':
        client = this.#preRegistered('enterprise-managed authorization');
        params = {
          grant_type: JWT_BEARER,
          assertion: await this.#exchange(grant.idp, discovered),
          ...common,
        };
        break;
    }
    const tokens = await requestToken(this.#http, { server, client, params, dpop });
    await this.#store.set(this.#tokenKey, tokens);
  }

  /** Enterprise-managed authorization: the ID token for an identity assertion at the IdP. */
  async #exchange(
    idp: Extract<NonNullable<OAuthClientOptions['grant']>, { type: 'token_exchange' }>['idp'],
    discovered: Discovered,
  ): Promise<string> {
    const body = new URLSearchParams({
      grant_type: 'urn:ietf:params:oauth:grant-type:token-exchange',
      requested_token_type: 'urn:ietf:params:oauth:token-type:id-jag',
      audience: discovered.server.issuer,
      subject_token: await idp.idToken(),
      subject_token_type: 'urn:ietf:params:oauth:token-type:id_token',
      client_id: idp.clientId,
    });
    if (discovered.resource !== undefined) body.set('resource', discovered.resource);
    if (idp.clientSecret !== undefined) body.set('client_secret', idp.clientSecret);
    const answer = await request(this.#http, idp.tokenEndpoint, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body: body.toString(),
    });
    const assertion = answer.body?.['access_token'];
    if (!answer.response.ok || typeof assertion !== 'string') {
      throw oauthFailure(`the token exchange at ${idp.tokenEndpoint}`, answer);
    }
    return assertion;
  }

  #preRegistered(what: string): OAuthClientInformation {
    const client = this.#options.client;
    if (client === undefined) {
      throw new AuthorizationError(
        'no_client',
        `${what} needs a pre-registered client (client id and secret or key)`,
      );
    }
    return client;
  }

  #identity() {
    const { client, clientMetadataUrl, clientMetadata } = this.#options;
    return {
      store: this.#store,
      ...(client === undefined ? {} : { client }),
      ...(clientMetadataUrl === undefined ? {} : { clientMetadataUrl }),
      ...(clientMetadata === undefined ? {} : { clientMetadata }),
    };
  }

  /**
   * The scope to request (spec basic/authorization#scope-selection-strategy): the option, else
   * the challenge's `scope`, else the resource metadata's `scopes_supported`, else none; a
   * step-up adds what was asked before (SEP-2350); `offline_access` when the server lists it.
   */
  #scope(discovered: Discovered, challenge: Challenge, stepUp: boolean): string | undefined {
    const chosen = stepUp
      ? (challenge.scope ?? '')
      : (this.#options.scope ?? challenge.scope ?? discovered.scopesSupported?.join(' ') ?? '');
    const scopes = new Set(chosen.split(/\s+/).filter((s) => s !== ''));
    if (stepUp) for (const scope of this.#requested) scopes.add(scope);
    const grant = this.#options.grant?.type ?? 'authorization_code';
    const offline = discovered.server.scopes_supported?.includes('offline_access') === true;
    if (grant === 'authorization_code' && offline) scopes.add('offline_access');
    for (const scope of scopes) this.#requested.add(scope);
    return scopes.size === 0 ? undefined : [...scopes].join(' ');
  }

  /**
   * The DPoP key for new tokens from `server`, or undefined for bearer tokens. `'auto'` binds
   * only when the MCP server takes bound tokens (`resourceTakes`: its metadata lists DPoP
   * algorithms, or it challenged with the DPoP scheme): a bound token would be refused elsewhere.
   */
  async #dpopFor(server: AuthorizationServerMetadata, resourceTakes: boolean) {
    const setting = this.#options.dpop ?? 'auto';
    if (setting === false || (setting === 'auto' && !resourceTakes)) return undefined;
    const supported = server.dpop_signing_alg_values_supported?.includes(DPOP_ALG) === true;
    if (!supported) {
      if (setting === true) {
        throw new AuthorizationError(
          'dpop_unsupported',
          `${server.issuer} does not accept ${DPOP_ALG} DPoP proofs`,
        );
      }
      return undefined;
    }
    const jose = setting === true ? await needJose('DPoP') : await tryJose();
    if (jose === undefined) return undefined;
    return { key: await newDpopKey(jose), nonces: this.#nonces };
  }

  /** Headers that present `tokens` for `request`. */
  async #present(tokens: OAuthTokens, request: AuthorizedRequest): Promise<Record<string, string>> {
    if (tokens.token_type !== 'DPoP' || tokens.dpop_key === undefined) {
      return { authorization: `Bearer ${tokens.access_token}` };
    }
    const key = await this.#keyOf(tokens.dpop_key);
    const nonce = this.#nonces.get(request.url);
    const proof = await key.proof({
      method: request.method,
      url: request.url,
      accessToken: tokens.access_token,
      ...(nonce === undefined ? {} : { nonce }),
    });
    return { authorization: `DPoP ${tokens.access_token}`, dpop: proof };
  }

  async #keyOf(jwk: Readonly<Record<string, unknown>>): Promise<DpopKey> {
    const id = JSON.stringify(jwk);
    if (this.#key?.id !== id) this.#key = { id, key: dpopKey(await needJose('DPoP'), jwk) };
    return this.#key.key;
  }

  /**
   * Refreshes the stored tokens before they expire (discovery again: the resource to name, and
   * whether the server still uses the same authorization server); drops them when that fails.
   */
  async #refreshStored(): Promise<boolean> {
    const tokens = await this.tokens();
    if (tokens === undefined) return false;
    if (tokens.refresh_token !== undefined) {
      try {
        const discovered = await this.#discover(undefined);
        if (
          discovered.server.issuer === tokens.issuer &&
          (await this.#refresh(discovered, tokens))
        ) {
          return true;
        }
      } catch {
        // Fall through: without a token the server answers 401 and the full flow runs.
      }
    }
    await this.#store.set(this.#tokenKey, undefined);
    return false;
  }

  /** The refresh token grant (RFC 6749 section 6); false when the server refused it. */
  async #refresh(discovered: Discovered, tokens: OAuthTokens): Promise<boolean> {
    const { server } = discovered;
    const client =
      this.#options.client ??
      ((await this.#store.get(clientKey(server.issuer))) as OAuthClientInformation | undefined);
    const jose = tokens.dpop_key === undefined ? undefined : await tryJose();
    const dpop =
      jose === undefined || tokens.dpop_key === undefined
        ? undefined
        : { key: dpopKey(jose, tokens.dpop_key), nonces: this.#nonces };
    try {
      const fresh = await requestToken(this.#http, {
        server,
        client,
        params: {
          grant_type: 'refresh_token',
          refresh_token: tokens.refresh_token,
          resource: discovered.resource,
        },
        dpop,
      });
      await this.#store.set(this.#tokenKey, {
        ...fresh,
        ...(fresh.refresh_token === undefined && tokens.refresh_token !== undefined
          ? { refresh_token: tokens.refresh_token }
          : {}),
      });
      return true;
    } catch (error) {
      if (error instanceof AuthorizationError && error.code !== 'unreachable') return false;
      throw error;
    }
  }
}

const JWT_BEARER = 'urn:ietf:params:oauth:grant-type:jwt-bearer';

/** What a refusal's challenge said. */
interface Challenge {
  readonly error?: string;
  readonly scope?: string;
  readonly metadata?: string;
  /** The server challenged with the DPoP scheme. */
  readonly dpop?: boolean;
}

/** The Bearer or DPoP challenge of a `WWW-Authenticate` header (the one with an error first). */
function challengeOf(header: string | undefined): Challenge {
  const challenges = parseChallenges(header ?? '').filter((c) =>
    ['bearer', 'dpop'].includes(c.scheme.toLowerCase()),
  );
  const merged: Record<string, string> = {};
  for (const { params } of challenges) {
    for (const [name, value] of Object.entries(params)) merged[name] ??= value;
  }
  return {
    dpop: challenges.some((c) => c.scheme.toLowerCase() === 'dpop'),
    ...(merged['error'] === undefined ? {} : { error: merged['error'] }),
    ...(merged['scope'] === undefined ? {} : { scope: merged['scope'] }),
    ...(merged['resource_metadata'] === undefined ? {} : { metadata: merged['resource_metadata'] }),
  };
}

function isTokens(value: unknown): value is OAuthTokens {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { access_token?: unknown }).access_token === 'string' &&
    typeof (value as { issuer?: unknown }).issuer === 'string'
  );
}
