// The page's client of the backend of `mcpkit inspect` (the contract's "API"): every call sends
// the access token in `X-Mcpkit-Token`, and the event stream is read with fetch, because
// EventSource cannot send a header.
import { SseParser } from './sse';
import type { JsonObject, RequestOutcome, ServerEvent, State, TargetView, Root } from './types';

const TOKEN_KEY = 'mcpkit-inspector-token';

/** A failed call to the backend, with the backend's own message when it gave one. */
export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
  }
}

/**
 * The access token: taken once from `?token=` (then dropped from the address bar, so it is not
 * left in the history or a screenshot) and kept for this tab in sessionStorage, so a reload works.
 */
export function takeToken(): string | undefined {
  const url = new URL(location.href);
  const fromUrl = url.searchParams.get('token');
  if (fromUrl !== null && fromUrl !== '') {
    try {
      sessionStorage.setItem(TOKEN_KEY, fromUrl);
    } catch {
      // Storage may be disabled; the token then lives only as long as this page.
    }
    url.searchParams.delete('token');
    history.replaceState(history.state, '', url.pathname + url.search + url.hash);
    return fromUrl;
  }
  try {
    return sessionStorage.getItem(TOKEN_KEY) ?? undefined;
  } catch {
    return undefined;
  }
}

let token: string | undefined;

/** Sets the token every later call sends. */
export function setToken(value: string | undefined): void {
  token = value;
}

function headers(json: boolean): Record<string, string> {
  const h: Record<string, string> = {};
  if (token !== undefined) h['X-Mcpkit-Token'] = token;
  if (json) h['Content-Type'] = 'application/json';
  return h;
}

async function failure(response: Response): Promise<ApiError> {
  let message = `${response.status} ${response.statusText}`.trim();
  try {
    const body = (await response.json()) as { error?: unknown };
    if (typeof body.error === 'string') message = body.error;
  } catch {
    // Not JSON: keep the status line.
  }
  if (response.status === 401) {
    message += ': open the address that mcpkit inspect printed (it ends with ?token=…)';
  }
  return new ApiError(message, response.status);
}

/** GET or POST (when `body` is given) one JSON endpoint under /api/. */
export async function call<T>(path: string, body?: unknown): Promise<T> {
  let response: Response;
  try {
    response = await fetch(`/api/${path}`, {
      method: body === undefined ? 'GET' : 'POST',
      headers: headers(body !== undefined),
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      cache: 'no-store',
    });
  } catch (error) {
    throw new ApiError(`the inspector backend cannot be reached (${String(error)})`, 0);
  }
  if (!response.ok) throw await failure(response);
  return (await response.json()) as T;
}

/** What `POST /api/connect` takes. */
export type ConnectTarget =
  | { kind: 'url'; url: string; headers?: Record<string, string> }
  | { kind: 'command'; command: string; args?: string[] };

export const api = {
  state: () => call<State>('state'),
  connect: (target: ConnectTarget, mode: string) => call<State>('connect', { target, mode }),
  disconnect: () => call<State>('disconnect', {}),
  roots: (roots: Root[]) => call<State>('roots', { roots }),
  cancel: (opId: string) => call<{ ok: true }>('cancel', { opId }),
  answer: (requestId: string, answer: { result: JsonObject } | { error: string }) =>
    call<unknown>('answer', { requestId, ...answer }),
  /** One MCP operation; an MCP failure is in the outcome, a failure of the backend throws. */
  request: (op: string, params: JsonObject, opId?: string) =>
    call<RequestOutcome>('request', { op, params, ...(opId === undefined ? {} : { opId }) }),
};

/** A view's resource as the backend read and checked it (POST /api/apps/resource). */
export interface AppResource {
  uri: string;
  html: string;
  csp?: Record<string, string[]>;
  dropped: string[];
  policy: string;
  permissions?: JsonObject;
  allow: string;
  prefersBorder?: boolean;
  domain?: string;
}

/** A view's request as the backend answered it: a JSON-RPC result or error for the view. */
export type AppOutcome = { result: unknown } | { error: { code: number; message: string } };

/** One record of the app channel of the wire log. */
export interface AppLogEntry {
  dir: '>>' | '<<';
  view: string;
  message: JsonObject;
}

/** The backend of MCP App views (/api/apps/). */
export const appsApi = {
  config: () => call<{ sandboxPort: number; version: string }>('apps/config'),
  resource: (uri: string, connection: number) =>
    call<AppResource>('apps/resource', { uri, connection }),
  callTool: (name: string, args: JsonObject, connection: number) =>
    call<AppOutcome>('apps/call', { name, arguments: args, connection }),
  read: (uri: string, connection: number) => call<AppOutcome>('apps/read', { uri, connection }),
  log: (entries: AppLogEntry[]) => call<{ ok: true }>('apps/log', { entries }),
};

/** Like {@link api.request}, but an MCP failure throws too: for calls whose result is needed. */
export async function mcp<T = JsonObject>(op: string, params: JsonObject = {}): Promise<T> {
  const outcome = await api.request(op, params);
  if (!outcome.ok) {
    const code = outcome.error.code === undefined ? '' : ` (${outcome.error.code})`;
    throw new ApiError(`${op}: ${outcome.error.message}${code}`, 200);
  }
  return outcome.result as T;
}

/** The wire transcript (the golden transcript format that `mcpkit replay` reads). */
export async function transcript(): Promise<string> {
  let response: Response;
  try {
    response = await fetch('/api/transcript', { headers: headers(false), cache: 'no-store' });
  } catch (error) {
    throw new ApiError(`the inspector backend cannot be reached (${String(error)})`, 0);
  }
  if (!response.ok) throw await failure(response);
  return response.text();
}

/** A fresh id for an operation, so that its progress and cancel can name it. */
export function newOpId(): string {
  // randomUUID exists only in secure contexts (http://127.0.0.1 is one; --host elsewhere is not).
  return 'randomUUID' in crypto
    ? crypto.randomUUID()
    : `op-${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;
}

/**
 * Reads `GET /api/events` until `signal` aborts, reconnecting after a break (1 s, then doubling up
 * to 10 s). `onEvent` gets each event, `onStatus` whether the stream is up and, when it is down,
 * why. A 401 stops it: retrying with the same token cannot help.
 */
export async function streamEvents(
  onEvent: (event: ServerEvent) => void,
  onStatus: (up: boolean, error?: ApiError) => void,
  signal: AbortSignal,
): Promise<void> {
  let delay = 1000;
  // A function, not the property: TypeScript would take it for unchanged across the awaits.
  const stopped = () => signal.aborted;
  while (!stopped()) {
    try {
      const response = await fetch('/api/events', { headers: headers(false), signal });
      if (!response.ok) throw await failure(response);
      if (response.body === null) throw new ApiError('the event stream has no body', 0);
      onStatus(true);
      delay = 1000;
      await readStream(response.body, onEvent);
      if (!stopped()) onStatus(false, new ApiError('the event stream ended', 0));
    } catch (error) {
      if (stopped()) return;
      const failed =
        error instanceof ApiError ? error : new ApiError(`event stream: ${String(error)}`, 0);
      onStatus(false, failed);
      if (failed.status === 401) return;
    }
    await new Promise((resolve) => setTimeout(resolve, delay));
    delay = Math.min(delay * 2, 10_000);
  }
}

async function readStream(
  body: ReadableStream<Uint8Array>,
  onEvent: (event: ServerEvent) => void,
): Promise<void> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  const parser = new SseParser();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return;
    for (const message of parser.push(decoder.decode(value, { stream: true }))) {
      let data: unknown;
      try {
        data = JSON.parse(message.data);
      } catch {
        continue; // Not ours to show: the contract sends JSON only.
      }
      onEvent({ type: message.event, data } as ServerEvent);
    }
  }
}

/** `TargetView` as one line of text. */
export function describeTarget(target: TargetView): string {
  return target.kind === 'url' ? target.url : [target.command, ...(target.args ?? [])].join(' ');
}

/** What to show for a caught failure. */
export function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
