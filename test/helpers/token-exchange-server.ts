// A small authorization server for the gateway's upstream-credentials tests: RFC 8414 metadata,
// a JWKS, and a token endpoint with the client credentials grant and RFC 8693 token exchange
// (oidc-provider, the auth tests' server, has no token exchange). Tokens are RFC 9068 JWTs signed
// with jose; an exchanged token keeps the subject of the token given and names the client that
// asked in `act` (RFC 8693 section 4.1). Every token request is recorded.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import type { JWTPayload } from 'jose';
import { SignJWT, exportJWK, generateKeyPair, jwtVerify } from 'jose';

export const TOKEN_EXCHANGE = 'urn:ietf:params:oauth:grant-type:token-exchange';

export interface ExchangeServer {
  readonly issuer: string;
  /** Every token request: its grant, client, and the subject of the token exchanged. */
  readonly requests: { grant: string; client: string; subject?: string; resource?: string }[];
  /** A token for `audience` with `claims` (what a downstream client would hold). */
  mint(audience: string, claims: JWTPayload): Promise<string>;
  close(): Promise<void>;
}

/**
 * Starts the server; `clients` are the client ids and secrets it knows. A subject in `refuse`
 * is refused an exchange (`access_denied`).
 */
export async function startExchangeServer(
  clients: Readonly<Record<string, string>>,
  refuse: readonly string[] = [],
): Promise<ExchangeServer> {
  const { privateKey, publicKey } = await generateKeyPair('ES256', { extractable: true });
  const kid = 'exchange-key-1';
  const publicJwk = { ...(await exportJWK(publicKey)), kid, alg: 'ES256', use: 'sig' };
  const http = createServer();
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${String((http.address() as AddressInfo).port)}`;
  const requests: ExchangeServer['requests'] = [];
  const sign = (audience: string, claims: JWTPayload) =>
    new SignJWT({ ...claims, jti: randomUUID() })
      .setProtectedHeader({ alg: 'ES256', kid, typ: 'at+jwt' })
      .setIssuer(issuer)
      .setAudience(audience)
      .setIssuedAt()
      .setExpirationTime('10m')
      .sign(privateKey);
  const json = (res: ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' });
    res.end(JSON.stringify(body));
  };
  const token = async (req: IncomingMessage, res: ServerResponse) => {
    let raw = '';
    for await (const chunk of req) raw += String(chunk);
    const form = new URLSearchParams(raw);
    const basic = /^Basic (.+)$/.exec(req.headers.authorization ?? '')?.[1];
    const [id, secret] =
      basic === undefined
        ? [form.get('client_id') ?? '', form.get('client_secret') ?? '']
        : Buffer.from(basic, 'base64').toString().split(':').map(decodeURIComponent);
    if (id === undefined || clients[id] === undefined || clients[id] !== secret) {
      json(res, 401, { error: 'invalid_client' });
      return;
    }
    const grant = form.get('grant_type') ?? '';
    const resource = form.get('resource') ?? form.get('audience') ?? undefined;
    const scope = form.get('scope') ?? undefined;
    if (grant === 'client_credentials') {
      requests.push({ grant, client: id, ...(resource === undefined ? {} : { resource }) });
      const access = await sign(resource ?? issuer, { sub: id, client_id: id, scope });
      json(res, 200, { access_token: access, token_type: 'Bearer', expires_in: 600 });
      return;
    }
    if (grant !== TOKEN_EXCHANGE) {
      json(res, 400, { error: 'unsupported_grant_type' });
      return;
    }
    let subject: JWTPayload;
    try {
      ({ payload: subject } = await jwtVerify(form.get('subject_token') ?? '', publicKey, {
        issuer,
      }));
    } catch {
      json(res, 400, {
        error: 'invalid_grant',
        error_description: 'the subject token is not valid',
      });
      return;
    }
    requests.push({
      grant,
      client: id,
      ...(subject.sub === undefined ? {} : { subject: subject.sub }),
      ...(resource === undefined ? {} : { resource }),
    });
    if (subject.sub !== undefined && refuse.includes(subject.sub)) {
      json(res, 403, { error: 'access_denied', error_description: 'no delegation for this user' });
      return;
    }
    const access = await sign(resource ?? issuer, {
      ...(subject.sub === undefined ? {} : { sub: subject.sub }),
      client_id: id,
      act: { sub: id },
      scope: scope ?? subject['scope'],
    });
    json(res, 200, {
      access_token: access,
      issued_token_type: 'urn:ietf:params:oauth:token-type:access_token',
      token_type: 'Bearer',
      expires_in: 600,
    });
  };
  http.on('request', (req, res) => {
    const path = new URL(req.url ?? '/', issuer).pathname;
    if (req.method === 'GET' && path === '/.well-known/oauth-authorization-server') {
      json(res, 200, {
        issuer,
        token_endpoint: `${issuer}/token`,
        jwks_uri: `${issuer}/jwks`,
        grant_types_supported: ['client_credentials', TOKEN_EXCHANGE],
        token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
      });
    } else if (req.method === 'GET' && path === '/jwks') {
      json(res, 200, { keys: [publicJwk] });
    } else if (req.method === 'POST' && path === '/token') {
      token(req, res).catch(() => {
        json(res, 500, { error: 'server_error' });
      });
    } else {
      json(res, 404, { error: 'not_found' });
    }
  });
  return {
    issuer,
    requests,
    mint: sign,
    close: () =>
      new Promise<void>((resolve) => {
        http.closeAllConnections();
        http.close(() => {
          resolve();
        });
      }),
  };
}
