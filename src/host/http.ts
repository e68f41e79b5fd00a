// What both model adapters share: POST a JSON body, turn HTTP failures into ModelError, and
// read a Server-Sent Events response event by event.
import type { SseEvent } from '../transports/http/index.js';
import { SseParser } from '../transports/http/index.js';
import { ModelError } from './types.js';

/** The fetch the adapters use (a test or a proxy may bring its own). */
export type Fetch = (input: string, init: RequestInit) => Promise<Response>;

/** POSTs `body` as JSON to `url`. Rejects with ModelError for a network failure or a non-2xx answer. */
export async function postJson(
  fetcher: Fetch,
  request: { url: string; headers: Record<string, string>; body: unknown; signal?: AbortSignal },
): Promise<Response> {
  let response: Response;
  try {
    response = await fetcher(request.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...request.headers },
      body: JSON.stringify(request.body),
      ...(request.signal === undefined ? {} : { signal: request.signal }),
    });
  } catch (error) {
    if (request.signal?.aborted === true) throw request.signal.reason;
    const reason =
      error instanceof Error
        ? error.cause instanceof Error
          ? error.cause.message
          : error.message
        : String(error);
    throw new ModelError(`cannot reach the model API at ${request.url}: ${reason}`, {
      cause: error,
    });
  }
  if (!response.ok) {
    const text = await response.text().catch(() => '');
    throw new ModelError(`the model API answered ${String(response.status)}${errorMessage(text)}`, {
      status: response.status,
    });
  }
  return response;
}

/** The message of an API error body (`{"error": {"message"}}` in both APIs), else its start. */
function errorMessage(text: string): string {
  try {
    const parsed = JSON.parse(text) as {
      error?: { message?: unknown } | string;
      message?: unknown;
    };
    const message =
      typeof parsed.error === 'object' ? parsed.error.message : (parsed.error ?? parsed.message);
    if (typeof message === 'string') return `: ${message}`;
  } catch {
    // not JSON
  }
  return text === '' ? '' : `: ${text.slice(0, 300)}`;
}

/** Reads a JSON response. Rejects with ModelError when it is not JSON. */
export async function readJson(response: Response): Promise<Record<string, unknown>> {
  const text = await response.text();
  try {
    const parsed: unknown = JSON.parse(text);
    if (typeof parsed === 'object' && parsed !== null) return parsed as Record<string, unknown>;
  } catch {
    // below
  }
  throw new ModelError(
    `the model API answered with something that is not JSON: ${text.slice(0, 200)}`,
  );
}

/** Calls `onEvent` for each event of an SSE response body, in order, until it ends. */
export async function readSse(
  response: Response,
  onEvent: (event: SseEvent) => void,
): Promise<void> {
  const body = response.body;
  if (body === null) throw new ModelError('the model API answered a stream with no body');
  const parser = new SseParser(onEvent);
  const decoder = new TextDecoder();
  for await (const chunk of body as unknown as AsyncIterable<Uint8Array>) {
    parser.push(decoder.decode(chunk, { stream: true }));
  }
  parser.push(decoder.decode());
}

/** Parses an SSE event's data as JSON. Throws ModelError. */
export function eventJson(event: SseEvent): Record<string, unknown> {
  try {
    return JSON.parse(event.data) as Record<string, unknown>;
  } catch {
    throw new ModelError(
      `the model API sent an event that is not JSON: ${event.data.slice(0, 200)}`,
    );
  }
}

/** Parses a tool call's arguments (JSON text). Not an object: `{}` with the text kept aside. */
export function parseArguments(text: string): Record<string, unknown> {
  if (text.trim() === '') return {};
  try {
    const parsed: unknown = JSON.parse(text);
    if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) {
      return parsed as Record<string, unknown>;
    }
  } catch {
    // below
  }
  return { _unparsed_arguments: text };
}

/** An API base URL without a trailing slash. */
export function trimBase(url: string): string {
  return url.replace(/\/+$/, '');
}
