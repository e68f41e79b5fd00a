// Credentials for an API's security schemes, from the environment or the configuration, never
// from the model's arguments: bearer and basic (http), API keys in a header, the query or a
// cookie, and OAuth 2 client credentials through mcpkit's OAuth client.
import type { OAuthClient } from '../client/index.js';
import { createOAuthClient } from '../client/index.js';
import type { OpenApiDocument, SecurityScheme, ToolPlan } from './types.js';

/**
 * A credential for one security scheme: a token or key (`bearer`, `apiKey`), a user and
 * password (`basic`), or an OAuth 2 client (`clientCredentials`).
 */
export type Credential =
  | { readonly token: string }
  | { readonly username: string; readonly password: string }
  | {
      readonly clientId: string;
      readonly clientSecret: string;
      readonly scopes?: readonly string[];
    };

/** What authentication adds to one request. */
export interface Applied {
  readonly headers: Record<string, string>;
  readonly query: string[];
  readonly cookies: string[];
  /** Something secret was added (redirects to another origin are then refused). */
  credentialed: boolean;
  /** The OAuth schemes whose tokens were added. */
  readonly oauth: string[];
}

/**
 * The environment variable holding a scheme's credential: `MCPKIT_OPENAPI_AUTH_` and the scheme's
 * name in capitals, other characters as `_` (`bearerAuth` → `MCPKIT_OPENAPI_AUTH_BEARERAUTH`).
 * Its value is the token or key, `user:password` for basic, `client_id:client_secret` for OAuth 2.
 */
export function credentialVariable(scheme: string): string {
  return `MCPKIT_OPENAPI_AUTH_${scheme.toUpperCase().replace(/[^A-Z0-9]+/g, '_')}`;
}

/** Reads the credentials of `document`'s schemes from `env` (see {@link credentialVariable}). */
export function credentialsFromEnv(
  document: OpenApiDocument,
  env: Readonly<Record<string, string | undefined>>,
): Record<string, Credential> {
  const found: Record<string, Credential> = {};
  for (const [name, scheme] of Object.entries(document.components?.securitySchemes ?? {})) {
    const value = env[credentialVariable(name)];
    if (value === undefined || value === '') continue;
    const pair = (): [string, string] => {
      const at = value.indexOf(':');
      return at < 0 ? [value, ''] : [value.slice(0, at), value.slice(at + 1)];
    };
    if (scheme.type === 'http' && scheme.scheme?.toLowerCase() === 'basic') {
      const [username, password] = pair();
      found[name] = { username, password };
    } else if (scheme.type === 'oauth2') {
      const [clientId, clientSecret] = pair();
      found[name] = { clientId, clientSecret };
    } else {
      found[name] = { token: value };
    }
  }
  return found;
}

/** Applies credentials to requests, by each operation's security requirements. */
export class Authenticator {
  readonly #schemes: Readonly<Record<string, SecurityScheme>>;
  readonly #credentials: Readonly<Record<string, Credential>>;
  readonly #oauth = new Map<string, OAuthClient>();
  readonly #fetch: ((url: string, init: RequestInit) => Promise<Response>) | undefined;

  constructor(
    document: OpenApiDocument,
    credentials: Readonly<Record<string, Credential>>,
    fetch?: (url: string, init: RequestInit) => Promise<Response>,
  ) {
    this.#schemes = document.components?.securitySchemes ?? {};
    this.#credentials = credentials;
    this.#fetch = fetch;
  }

  /** The first requirement of `plan` whose every scheme has a credential, applied. */
  async apply(plan: ToolPlan, url: URL): Promise<Applied> {
    const applied: Applied = {
      headers: {},
      query: [],
      cookies: [],
      credentialed: false,
      oauth: [],
    };
    const requirement = plan.operation.security.find((entry) =>
      Object.keys(entry).every(
        (name) => this.#credentials[name] !== undefined && this.#schemes[name] !== undefined,
      ),
    );
    if (requirement === undefined) return applied;
    for (const [name, scopes] of Object.entries(requirement)) {
      await this.#applyOne(name, scopes, { applied, url });
    }
    return applied;
  }

  async #applyOne(
    name: string,
    scopes: readonly string[],
    { applied, url }: { applied: Applied; url: URL },
  ): Promise<void> {
    const scheme = this.#schemes[name] as SecurityScheme;
    const credential = this.#credentials[name] as Credential;
    applied.credentialed = true;
    if ('token' in credential) {
      const token = credential.token;
      if (scheme.type === 'apiKey' && scheme.name !== undefined) {
        if (scheme.in === 'query') {
          applied.query.push(`${encodeURIComponent(scheme.name)}=${encodeURIComponent(token)}`);
        } else if (scheme.in === 'cookie') applied.cookies.push(`${scheme.name}=${token}`);
        else applied.headers[scheme.name] = token;
      } else {
        applied.headers['authorization'] = `Bearer ${token}`;
      }
    } else if ('username' in credential) {
      const basic = Buffer.from(`${credential.username}:${credential.password}`).toString('base64');
      applied.headers['authorization'] = `Basic ${basic}`;
    } else {
      const headers = await this.#oauthHeaders(name, { scheme, credential, scopes, url });
      Object.assign(applied.headers, headers);
      applied.oauth.push(name);
    }
  }

  /** Forgets the tokens of these OAuth schemes: the next request asks for new ones. */
  async forget(schemes: readonly string[]): Promise<void> {
    for (const name of schemes) await this.#oauth.get(name)?.logout();
  }

  async #oauthHeaders(
    name: string,
    context: {
      scheme: SecurityScheme;
      credential: Extract<Credential, { clientId: string }>;
      scopes: readonly string[];
      url: URL;
    },
  ): Promise<Record<string, string>> {
    const tokenUrl = context.scheme.flows?.clientCredentials?.tokenUrl;
    if (tokenUrl === undefined) return {};
    let client = this.#oauth.get(name);
    if (client === undefined) {
      const scopes = context.credential.scopes ?? context.scopes;
      client = createOAuthClient({
        serverUrl: context.url.origin,
        grant: { type: 'client_credentials' },
        client: {
          client_id: context.credential.clientId,
          client_secret: context.credential.clientSecret,
        },
        authorizationServer: { issuer: new URL(tokenUrl).origin, token_endpoint: tokenUrl },
        ...(scopes.length === 0 ? {} : { scope: scopes.join(' ') }),
        dpop: false,
        ...(this.#fetch === undefined ? {} : { fetch: this.#fetch }),
      });
      this.#oauth.set(name, client);
    }
    const request = { url: context.url.href, method: 'POST' };
    let headers = await client.headers(request);
    if (headers['authorization'] === undefined) {
      await client.authorize();
      headers = await client.headers(request);
    }
    return { ...headers };
  }
}
