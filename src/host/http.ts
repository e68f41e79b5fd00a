// What both model adapters share: POST a JSON body, turn HTTP failures into ModelError, and
// read a Server-Sent Events response event by event.
import type { SseEvent } from '../transports/http/index.js';
import { SseParser } from '../transports/http/index.js';
import type { ToolCallPart } from './types.js';
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

/** A tool call as a model API sent it: its arguments decoded (`input`) or as JSON text (`json`). */
export interface RawToolCall {
  readonly id: unknown;
  readonly name: unknown;
  /** The arguments as a value (a Messages `input`); absent is none (`{}`). */
  readonly input?: unknown;
  /** The arguments as JSON text (streamed, or Chat Completions); empty is none (`{}`). */
  readonly json?: string;
}

/**
 * A tool call of a model's answer. Arguments that are not a JSON object make it `invalid`: the
 * host answers it with an error instead of running it. Throws ModelError when the call has no
 * id (`api` names the API), as no result could answer it: the caller must not run any call of
 * that answer.
 */
export function toolCallPart(api: string, call: RawToolCall): ToolCallPart {
  const name = typeof call.name === 'string' ? call.name : '';
  if (typeof call.id !== 'string' || call.id === '') {
    throw new ModelError(
      `the ${api} sent a tool call to "${name}" without an id; no tool of that answer was run`,
    );
  }
  const part = { type: 'tool_call', id: call.id, name } as const;
  let value: unknown = call.input ?? {};
  let shown: string | undefined;
  if (call.json !== undefined && call.json.trim() !== '') {
    try {
      value = JSON.parse(call.json);
    } catch {
      shown = call.json;
    }
  }
  if (shown === undefined && typeof value === 'object' && value !== null && !Array.isArray(value)) {
    return { ...part, arguments: value as Record<string, unknown> };
  }
  shown ??= JSON.stringify(value);
  return { ...part, arguments: {}, invalid: `its arguments are not a JSON object: ${clip(shown)}` };
}

/** The start of a long text, for a message. */
function clip(text: string): string {
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
}

/** An API base URL without a trailing slash. */
export function trimBase(url: string): string {
  return url.replace(/\/+$/, '');
}
