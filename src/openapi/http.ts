// The outbound HTTP of generated tools: node:http(s) with every address checked against the
// outbound-address policy (names resolved, then checked, then connected to: no rebinding in
// between), redirects followed by hand (never to another origin with credentials; configured
// headers stay with the API's origin), an overall
// deadline, and a cap on the bytes read.
import { lookup as dnsLookup } from 'node:dns';
import type { LookupAddress, LookupOptions } from 'node:dns';
import { request as httpRequest } from 'node:http';
import type { IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP } from 'node:net';
import type { TargetCheck } from '../internal/address-policy.js';
import { messageOf } from '../internal/message-of.js';

/** One HTTP request. */
export interface HttpRequest {
  readonly method: string;
  readonly url: URL;
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: Uint8Array;
  /**
   * Headers that only the API's own origin may see (configured ones, credentials): dropped,
   * with `authorization` and `cookie`, when a redirect leads to another origin.
   */
  readonly privateHeaders?: readonly string[];
}

/** What came back: the final response, its body up to the cap. */
export interface HttpResponse {
  readonly status: number;
  readonly statusText: string;
  readonly headers: IncomingMessage['headers'];
  readonly body: Buffer;
  /** The body was longer than the cap; `body` holds its start. */
  readonly truncated: boolean;
  readonly url: URL;
}

/** How {@link send} may reach out. */
export interface SendOptions {
  readonly timeoutMs: number;
  readonly maxBytes: number;
  readonly maxRedirects: number;
  /** Addresses of hosts other than `trustedHost` are checked against it. */
  readonly targets: TargetCheck;
  /** The API's own host (the base URL's `host`): the operator chose it, so it is not checked. */
  readonly trustedHost: string;
  /** The request carries credentials: no redirect to another origin is followed. */
  readonly credentialed: boolean;
  readonly signal?: AbortSignal | undefined;
}

/** A request that could not complete (refused address, redirect, timeout, network): why. */
export class HttpFailure extends Error {
  override readonly name = 'HttpFailure';
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/** Sends `request`, following redirects as the options allow. Throws HttpFailure. */
export async function send(request: HttpRequest, options: SendOptions): Promise<HttpResponse> {
  const deadline = AbortSignal.timeout(options.timeoutMs);
  const signal =
    options.signal === undefined ? deadline : AbortSignal.any([deadline, options.signal]);
  let current = request;
  for (let hop = 0; ; hop++) {
    const response = await once(current, options, signal).catch((error: unknown) => {
      if (deadline.aborted) {
        throw new HttpFailure(
          `no answer from ${current.url.origin} within ${String(options.timeoutMs)} ms`,
        );
      }
      throw error instanceof HttpFailure
        ? error
        : new HttpFailure(`${current.url.origin} could not be reached: ${messageOf(error)}`);
    });
    const location = response.headers.location;
    if (!REDIRECTS.has(response.status) || location === undefined) return response;
    if (hop >= options.maxRedirects) {
      throw new HttpFailure(`more than ${String(options.maxRedirects)} redirects`);
    }
    current = redirected(
      current,
      { status: response.status, target: new URL(location, current.url) },
      options,
    );
  }
}

function redirected(
  request: HttpRequest,
  { status, target }: { status: number; target: URL },
  options: SendOptions,
): HttpRequest {
  if (target.protocol !== 'http:' && target.protocol !== 'https:') {
    throw new HttpFailure(`redirected to ${target.protocol} URL; not followed`);
  }
  let headers = request.headers;
  if (target.origin !== request.url.origin) {
    if (options.credentialed) {
      throw new HttpFailure(
        `redirected to another origin (${target.origin}); not followed, since the request carries credentials`,
      );
    }
    const dropped = new Set(['authorization', 'cookie', 'proxy-authorization']);
    for (const name of request.privateHeaders ?? []) dropped.add(name.toLowerCase());
    headers = Object.fromEntries(
      Object.entries(headers).filter(([name]) => !dropped.has(name.toLowerCase())),
    );
  }
  const toGet = status === 303 || ((status === 301 || status === 302) && request.method === 'POST');
  if (!toGet) return { ...request, url: target, headers };
  return {
    method: 'GET',
    url: target,
    headers: Object.fromEntries(
      Object.entries(headers).filter(([name]) => !/^content-/i.test(name)),
    ),
    ...(request.privateHeaders === undefined ? {} : { privateHeaders: request.privateHeaders }),
  };
}

function once(
  request: HttpRequest,
  options: SendOptions,
  signal: AbortSignal,
): Promise<HttpResponse> {
  const { url } = request;
  const trusted = url.host === options.trustedHost;
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (!trusted && isIP(host) !== 0) refuse(options.targets, url.hostname, host);
  const make = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const req = make(
      url,
      {
        method: request.method,
        headers: {
          ...request.headers,
          ...(request.body === undefined
            ? {}
            : { 'content-length': String(request.body.byteLength) }),
        },
        signal,
        ...(trusted ? {} : { lookup: guardedLookup(options.targets) }),
      },
      (res) => {
        read(res, options.maxBytes).then(({ body, truncated }) => {
          resolve({
            status: res.statusCode ?? 0,
            statusText: res.statusMessage ?? '',
            headers: res.headers,
            body,
            truncated,
            url,
          });
        }, reject);
      },
    );
    req.on('error', reject);
    req.end(request.body === undefined ? undefined : Buffer.from(request.body));
  });
}

function read(
  res: IncomingMessage,
  maxBytes: number,
): Promise<{ body: Buffer; truncated: boolean }> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    res.on('data', (chunk: Buffer) => {
      if (size >= maxBytes) return;
      const room = maxBytes - size;
      chunks.push(chunk.byteLength > room ? chunk.subarray(0, room) : chunk);
      size += Math.min(room, chunk.byteLength);
      if (size >= maxBytes) {
        resolve({ body: Buffer.concat(chunks), truncated: true });
        res.destroy();
      }
    });
    res.on('end', () => {
      resolve({ body: Buffer.concat(chunks), truncated: false });
    });
    res.on('error', (error) => {
      if (size < maxBytes) reject(error);
    });
  });
}

function refuse(targets: TargetCheck, name: string, address: string): void {
  const refusal = targets.refusal(address);
  if (refusal !== undefined) throw new HttpFailure(`refused to connect to ${name}: ${refusal}`);
}

type LookupCallback = (
  error: NodeJS.ErrnoException | null,
  address: string | LookupAddress[],
  family?: number,
) => void;

/** A `lookup` for node:http that resolves every address of a name and refuses if any is denied. */
function guardedLookup(targets: TargetCheck) {
  return (hostname: string, options: LookupOptions, callback: LookupCallback): void => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error !== null) {
        callback(error, []);
        return;
      }
      try {
        for (const { address } of addresses) refuse(targets, hostname, address);
      } catch (refusal) {
        callback(refusal as NodeJS.ErrnoException, []);
        return;
      }
      const [first] = addresses;
      if (options.all === true) callback(null, addresses);
      else if (first === undefined) callback(new Error(`${hostname} has no address`), []);
      else callback(null, first.address, first.family);
    });
  };
}
