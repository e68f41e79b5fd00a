// The OAuth client's HTTP: JSON documents and form posts with a time limit and a size limit,
// and OAuth error responses (RFC 6749 section 5.2) turned into AuthorizationErrors that name
// the server's error code but never echo a credential.
import { AuthorizationError } from '../../protocol/auth.js';

/** The fetch the OAuth client calls. */
export type OAuthFetch = (url: string, init: RequestInit) => Promise<Response>;

/** What every OAuth HTTP request of one client shares. */
export interface OAuthHttp {
  readonly fetch: OAuthFetch;
  readonly timeoutMs: number;
}

const MAX_DOCUMENT_CHARS = 1024 * 1024;

/** A response and its body parsed as a JSON object (undefined when it is not one). */
export interface JsonResponse {
  readonly response: Response;
  readonly body: Readonly<Record<string, unknown>> | undefined;
}

/** Sends one request; rejects with an AuthorizationError when the server cannot be reached. */
export async function request(
  http: OAuthHttp,
  url: string,
  init: RequestInit,
): Promise<JsonResponse> {
  let response: Response;
  try {
    response = await http.fetch(url, {
      // Documents may move (a redirect is followed); a POST is never sent on to another URL.
      redirect: init.method === 'GET' ? 'follow' : 'manual',
      ...init,
      signal: AbortSignal.timeout(http.timeoutMs),
    });
  } catch (error) {
    throw new AuthorizationError('unreachable', `cannot reach ${url}: ${reason(error)}`, {
      cause: error,
    });
  }
  const text = await response.text().catch(() => '');
  return { response, body: text.length > MAX_DOCUMENT_CHARS ? undefined : jsonObject(text) };
}

/**
 * GETs a JSON document; undefined when there is none there (any failure status, or no answer:
 * discovery then tries the next place).
 */
export async function getDocument(
  http: OAuthHttp,
  url: string,
): Promise<Readonly<Record<string, unknown>> | undefined> {
  try {
    const { response, body } = await request(http, url, {
      method: 'GET',
      headers: { accept: 'application/json' },
    });
    return response.ok ? body : undefined;
  } catch {
    return undefined;
  }
}

/** The AuthorizationError for an OAuth error response from `what` (a token endpoint, say). */
export function oauthFailure(what: string, { response, body }: JsonResponse): AuthorizationError {
  const error = typeof body?.['error'] === 'string' ? body['error'] : undefined;
  const description =
    typeof body?.['error_description'] === 'string' ? `: ${body['error_description']}` : '';
  const said = error === undefined ? `HTTP ${response.status}` : `${error}${description}`;
  return new AuthorizationError(error ?? 'server_error', `${what} refused: ${said}`);
}

function jsonObject(text: string): Readonly<Record<string, unknown>> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

function reason(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  if (error.name === 'TimeoutError') return 'no answer in time';
  const cause: unknown = error.cause;
  return cause instanceof Error && cause.message !== '' ? cause.message : error.message;
}

/** True for `http://localhost`, `127.0.0.0/8` and `[::1]` URLs, where plain HTTP is allowed. */
export function isLoopback(url: URL): boolean {
  const host = url.hostname;
  return host === 'localhost' || host === '[::1]' || /^127(\.\d{1,3}){3}$/.test(host);
}

/**
 * Checks that an endpoint of the authorization server may be used: HTTPS, or HTTP on a loopback
 * host (spec basic/authorization, communication security). Returns the URL.
 */
export function checkEndpoint(value: unknown, name: string, issuer: string): string {
  if (typeof value !== 'string') {
    throw new AuthorizationError('invalid_metadata', `the metadata of ${issuer} has no ${name}`);
  }
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new AuthorizationError('invalid_metadata', `${name} of ${issuer} is not a URL`);
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && isLoopback(url))) {
    throw new AuthorizationError(
      'insecure_endpoint',
      `${name} of ${issuer} (${url.origin}) is not HTTPS; OAuth endpoints must be HTTPS but on loopback`,
    );
  }
  return url.href;
}
