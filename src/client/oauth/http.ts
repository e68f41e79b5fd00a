// The OAuth client's HTTP: JSON documents and form posts with a time limit and a size limit,
// and OAuth error responses (RFC 6749 section 5.2) turned into AuthorizationErrors that name
// the server's error code but never echo a credential.
import { BodyTooLargeError, describeBytes, readBodyCapped } from '../../internal/body.js';
import { parseObject } from '../../internal/json.js';
import { AuthorizationError } from '../../protocol/auth.js';

/** The fetch the OAuth client calls. */
export type OAuthFetch = (url: string, init: RequestInit) => Promise<Response>;

/** What every OAuth HTTP request of one client shares. */
export interface OAuthHttp {
  readonly fetch: OAuthFetch;
  readonly timeoutMs: number;
}

/** The most of an OAuth answer read (metadata, registration, token): past it, none is used. */
export const MAX_DOCUMENT_BYTES: number = 1024 * 1024;

/** A response and its body parsed as a JSON object (undefined when it is not one). */
export interface JsonResponse {
  readonly response: Response;
  readonly body: Readonly<Record<string, unknown>> | undefined;
}

/**
 * Sends one request and reads its answer within `http.timeoutMs` (headers and body). Rejects
 * with an AuthorizationError: `unreachable` when the server cannot be reached or does not
 * answer in time, `response_too_large` when the body passes {@link MAX_DOCUMENT_BYTES} (the
 * rest is never read).
 */
export async function request(
  http: OAuthHttp,
  url: string,
  init: RequestInit,
): Promise<JsonResponse> {
  const signal = AbortSignal.timeout(http.timeoutMs);
  const unreachable = (error: unknown) =>
    signal.aborted
      ? new NoAnswer(`${url} did not answer within ${String(http.timeoutMs)} ms`, error)
      : new AuthorizationError('unreachable', `cannot reach ${url}: ${reason(error)}`, {
          cause: error,
        });
  let response: Response;
  try {
    response = await http.fetch(url, {
      // Documents may move (a redirect is followed); a POST is never sent on to another URL.
      redirect: init.method === 'GET' ? 'follow' : 'manual',
      ...init,
      signal,
    });
  } catch (error) {
    throw unreachable(error);
  }
  let text: string;
  try {
    text = await readBodyCapped(response, MAX_DOCUMENT_BYTES);
  } catch (error) {
    if (error instanceof BodyTooLargeError) {
      throw new AuthorizationError(
        'response_too_large',
        `the answer of ${url} is larger than ${describeBytes(MAX_DOCUMENT_BYTES)}; it was not read`,
      );
    }
    if (signal.aborted) throw unreachable(error);
    text = ''; // a body cut short is no document
  }
  return { response, body: parseObject(text) };
}

/**
 * GETs a JSON document; undefined when there is none there (a failure status, or no server:
 * discovery then tries the next place). A server that does not answer in time, or answers too
 * much, rejects as {@link request} does: the next place is on the same server.
 */
export async function getDocument(
  http: OAuthHttp,
  url: string,
): Promise<Readonly<Record<string, unknown>> | undefined> {
  try {
    return await jsonDocument(http, url);
  } catch (error) {
    if (error instanceof NoAnswer) throw error;
    if (error instanceof AuthorizationError && error.code === 'response_too_large') throw error;
    return undefined;
  }
}

/**
 * GETs a JSON document: undefined for a failure status; rejects as {@link request} does (no
 * answer, unreachable, too large).
 */
export async function jsonDocument(
  http: OAuthHttp,
  url: string,
): Promise<Readonly<Record<string, unknown>> | undefined> {
  const { response, body } = await request(http, url, {
    method: 'GET',
    headers: { accept: 'application/json' },
  });
  return response.ok ? body : undefined;
}

/** The AuthorizationError for an OAuth error response from `what` (a token endpoint, say). */
export function oauthFailure(what: string, { response, body }: JsonResponse): AuthorizationError {
  const error = typeof body?.['error'] === 'string' ? body['error'] : undefined;
  const description =
    typeof body?.['error_description'] === 'string' ? `: ${body['error_description']}` : '';
  const said = error === undefined ? `HTTP ${response.status}` : `${error}${description}`;
  return new AuthorizationError(error ?? 'server_error', `${what} refused: ${said}`);
}

/** The rejection of {@link request} when the server did not answer in time. */
class NoAnswer extends AuthorizationError {
  constructor(message: string, cause: unknown) {
    super('unreachable', message, { cause });
  }
}

function reason(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
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
