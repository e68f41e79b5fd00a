// The development authorization server of `mcpkit auth dev-server`: oidc-provider (an optional
// peer, a certified OpenID provider) on 127.0.0.1, so that OAuth can be tried locally. It is
// NOT for production: every sign-in is approved at once as one user, with no password and no
// consent page; its signing key and its clients live in memory and die with the process.
// What it does serve is real: dynamic client registration (RFC 7591), the authorization code
// grant with PKCE, refresh tokens, resource indicators (RFC 8707) and JWT access tokens
// (RFC 9068) for the resource a client names, and the client credentials grant.
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type Provider from 'oidc-provider';

/** Options of {@link startDevAuthServer}. */
export interface DevAuthServerOptions {
  /** The port on 127.0.0.1 (0: a free one). */
  readonly port: number;
  /** The scopes it grants; a scope asked for that is not among them is left out of the token. */
  readonly scopes: readonly string[];
  /** The account every sign-in is approved as. */
  readonly user: string;
  /** Hears each sign-in and token. */
  readonly onEvent: (line: string) => void;
}

/** A running development authorization server. */
export interface DevAuthServer {
  readonly issuer: string;
  /** The confidential client for the client credentials grant. */
  readonly agent: { readonly clientId: string; readonly clientSecret: string };
  close(): Promise<void>;
}

/** A day, in seconds. */
const DAY = 86_400;

/** The client id of the client credentials client. */
const AGENT_ID = 'mcpkit-dev-agent';

/** Starts the server; rejects when oidc-provider is not installed (ERR_MODULE_NOT_FOUND). */
export async function startDevAuthServer(options: DevAuthServerOptions): Promise<DevAuthServer> {
  const { default: OidcProvider } = await import('oidc-provider');
  const http = createServer();
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(options.port, '127.0.0.1', resolve);
  });
  const issuer = `http://127.0.0.1:${String((http.address() as AddressInfo).port)}`;
  const agent = { clientId: AGENT_ID, clientSecret: randomBytes(24).toString('base64url') };
  const provider = new OidcProvider(issuer, configuration(options, agent));
  provider.on('access_token.issued', (token) => {
    options.onEvent(`access token for ${token.clientId}, scope "${token.scope ?? ''}"`);
  });
  provider.on('client_credentials.issued', (token) => {
    options.onEvent(`access token for ${token.clientId}, scope "${token.scope ?? ''}"`);
  });
  const callback = provider.callback();
  http.on('request', (req, res) => {
    if (req.url?.startsWith('/interaction/') === true) {
      approve(provider, { req, res, user: options.user, onEvent: options.onEvent }).catch(
        (error: unknown) => {
          res.writeHead(500, { 'content-type': 'text/plain' }).end(String(error));
        },
      );
      return;
    }
    void callback(req, res);
  });
  return {
    issuer,
    agent,
    close: () =>
      new Promise<void>((resolve) => {
        http.closeAllConnections();
        http.close(() => {
          resolve();
        });
      }),
  };
}

/** oidc-provider's configuration, built loosely and then typed (its feature unions are strict). */
function configuration(
  options: DevAuthServerOptions,
  agent: DevAuthServer['agent'],
): ConstructorParameters<typeof Provider>[1] {
  const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const jwk = { ...privateKey.export({ format: 'jwk' }), kid: 'dev-1', alg: 'ES256', use: 'sig' };
  const scope = options.scopes.join(' ');
  const config = {
    jwks: { keys: [jwk] },
    cookies: { keys: [randomBytes(32).toString('base64url')] },
    scopes: [...options.scopes],
    clients: [
      {
        client_id: agent.clientId,
        client_secret: agent.clientSecret,
        grant_types: ['client_credentials'],
        redirect_uris: [],
        response_types: [],
        scope,
      },
    ],
    clientDefaults: { id_token_signed_response_alg: 'ES256' },
    enabledJWA: { idTokenSigningAlgValues: ['ES256'] },
    interactions: {
      url: (_ctx: unknown, interaction: { uid: string }) => `/interaction/${interaction.uid}`,
    },
    issueRefreshToken: () => Promise.resolve(true),
    findAccount: (_ctx: unknown, id: string) => ({ accountId: id, claims: () => ({ sub: id }) }),
    // Lifetimes in seconds (given, so that oidc-provider does not warn about its defaults).
    ttl: {
      AccessToken: 3600,
      AuthorizationCode: 60,
      ClientCredentials: 3600,
      Grant: DAY,
      IdToken: 3600,
      Interaction: 600,
      RefreshToken: DAY,
      Session: DAY,
    },
    features: {
      devInteractions: { enabled: false },
      clientCredentials: { enabled: true },
      registration: { enabled: true },
      revocation: { enabled: true },
      resourceIndicators: {
        enabled: true,
        defaultResource: () => undefined,
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx: unknown, resource: string) => ({
          scope,
          audience: resource,
          accessTokenTTL: 3600,
          accessTokenFormat: 'jwt',
          jwt: { sign: { alg: 'ES256' } },
        }),
      },
    },
  };
  return config as ConstructorParameters<typeof Provider>[1];
}

/** The sign-in, approved at once: logs in as `user` and grants every grantable scope asked. */
async function approve(
  provider: Provider,
  exchange: {
    req: IncomingMessage;
    res: ServerResponse;
    user: string;
    onEvent: (line: string) => void;
  },
): Promise<void> {
  const { req, res, user } = exchange;
  const details = await provider.interactionDetails(req, res);
  const { prompt, params } = details;
  if (prompt.name === 'login') {
    await provider.interactionFinished(req, res, { login: { accountId: user } });
    return;
  }
  const clientId = String(params['client_id']);
  const grant =
    details.grantId === undefined
      ? new provider.Grant({ accountId: user, clientId })
      : await provider.Grant.find(details.grantId);
  if (grant === undefined) throw new Error('no grant to add consent to');
  const missing = prompt.details as {
    missingOIDCScope?: string[];
    missingResourceScopes?: Record<string, string[]>;
  };
  if (missing.missingOIDCScope !== undefined)
    grant.addOIDCScope(missing.missingOIDCScope.join(' '));
  for (const [resource, scopes] of Object.entries(missing.missingResourceScopes ?? {})) {
    grant.addResourceScope(resource, scopes.join(' '));
    exchange.onEvent(
      `${user} signed in to ${resource} for ${clientId}, scope "${scopes.join(' ')}"`,
    );
  }
  const grantId = await grant.save();
  await provider.interactionFinished(
    req,
    res,
    { consent: { grantId } },
    { mergeWithLastSubmission: true },
  );
}
