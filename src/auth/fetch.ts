// The resource server's requests to its authorization server (metadata, JWKS, introspection):
// each within a time limit, headers and body, and no answer read past 1 MiB, so that a hung or
// hostile authorization server costs a request a bounded wait and bounded memory.
import { BodyTooLargeError, describeBytes, readBodyCapped } from '../internal/body.js';

/** How long one request to the authorization server may take by default, in milliseconds. */
export const DEFAULT_AUTH_TIMEOUT_MS = 5000;

/** The most of an authorization server's answer that is read. */
export const MAX_AUTH_ANSWER_BYTES: number = 1024 * 1024;

/** How a verifier reaches its authorization server. */
export interface AuthHttp {
  readonly fetch: typeof fetch;
  /** How long one request (or one discovery) may take, in milliseconds. */
  readonly timeoutMs: number;
}

/** An answer of the authorization server, read whole. */
export interface Answer {
  readonly response: Response;
  readonly text: string;
}

/** Why the authorization server gave no usable answer. */
export type AuthServerFailure = 'timeout' | 'too_large' | 'unreachable';

/** The rejection of {@link fetchAnswer}: a failure of the verifier (503), not of the token. */
export class AuthServerError extends Error {
  override readonly name = 'AuthServerError';
  readonly failure: AuthServerFailure;

  constructor(failure: AuthServerFailure, message: string, cause?: unknown) {
    super(message, { cause });
    this.failure = failure;
  }
}

/**
 * Fetches `url` and reads its body within `timeoutMs` (or `init.signal`, when given: one limit
 * across several requests). Rejects with an {@link AuthServerError} naming the URL when there
 * is no answer in time, when it cannot be reached, or when the body passes
 * {@link MAX_AUTH_ANSWER_BYTES} (the rest is never read).
 */
export async function fetchAnswer(
  http: AuthHttp,
  url: string,
  init: RequestInit = {},
): Promise<Answer> {
  const { timeoutMs } = http;
  const signal = init.signal ?? AbortSignal.timeout(timeoutMs);
  try {
    const response = await http.fetch(url, { ...init, signal });
    return { response, text: await readBodyCapped(response, MAX_AUTH_ANSWER_BYTES) };
  } catch (error) {
    if (error instanceof BodyTooLargeError) {
      const limit = describeBytes(MAX_AUTH_ANSWER_BYTES);
      throw new AuthServerError(
        'too_large',
        `the answer of ${url} is larger than ${limit}; it was not read`,
      );
    }
    if (signal.aborted) {
      const message = `${url} did not answer within ${String(timeoutMs)} ms`;
      throw new AuthServerError('timeout', message, error);
    }
    const why = error instanceof Error ? (causeOf(error) ?? error.message) : String(error);
    throw new AuthServerError('unreachable', `cannot reach ${url}: ${why}`, error);
  }
}

/**
 * A fetch for `jose`'s remote key set: the same limits, the answer handed on as read. Its
 * failures are errors of the verifier (503), never a refusal of the token.
 */
export function cappedFetch(http: AuthHttp): typeof fetch {
  return async (input, init) => {
    const url = input instanceof Request ? input.url : String(input);
    const { response, text } = await fetchAnswer(http, url, init);
    return new Response(NULL_BODY.has(response.status) ? null : text, {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  };
}

const NULL_BODY = new Set([101, 103, 204, 205, 304]);

/** The {@link AuthHttp} of a verifier's options; throws TypeError on a bad `timeoutMs`. */
export function authHttp(
  options: { readonly fetch?: typeof fetch; readonly timeoutMs?: number },
  name: string,
): AuthHttp {
  const timeoutMs = options.timeoutMs ?? DEFAULT_AUTH_TIMEOUT_MS;
  if (!(Number.isFinite(timeoutMs) && timeoutMs > 0)) {
    throw new TypeError(`${name}: timeoutMs must be a positive number, got ${String(timeoutMs)}`);
  }
  return { fetch: options.fetch ?? globalThis.fetch, timeoutMs };
}

function causeOf(error: Error): string | undefined {
  const cause: unknown = error.cause;
  return cause instanceof Error && cause.message !== '' ? cause.message : undefined;
}

/**
 * What a verifier knows of its authorization server: whether its last use worked. `probe` uses
 * it again (fetches the keys, introspects a made-up token) and is run at most once at a time.
 */
export class Reachability {
  readonly #probe: () => Promise<unknown>;
  #failure: Error | undefined;
  #reached = false;
  #probing: Promise<void> | undefined;

  constructor(probe: () => Promise<unknown>) {
    this.#probe = probe;
  }

  /** A use of the authorization server worked. */
  ok(): void {
    this.#failure = undefined;
    this.#reached = true;
  }

  /** A use of the authorization server failed with `error`. */
  failed(error: unknown): void {
    this.#failure = error instanceof Error ? error : new Error(String(error));
  }

  /**
   * The verifier's `health`: resolves at once while the last use worked; before any use, waits
   * for a probe; after a failure, rejects with it at once and probes again behind it (so that a
   * load balancer that stopped sending requests still sees the recovery).
   */
  readonly health = async (): Promise<void> => {
    if (this.#failure === undefined && this.#reached) return;
    const probing = (this.#probing ??= this.#probe()
      .then(
        () => {
          this.ok();
        },
        (error: unknown) => {
          this.failed(error);
        },
      )
      .finally(() => {
        this.#probing = undefined;
      }));
    if (this.#failure === undefined) await probing;
    if (this.#failure !== undefined) throw this.#failure;
  };
}
