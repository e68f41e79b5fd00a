// Shared by the gateway tests that hold a live session: the JSON-RPC code of a refused call, the
// next event a config watch reports, and an SDK v1 session that records its HTTP requests and is
// told of tool list changes (the reload tests).
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as StreamableHttpV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';

/** The JSON-RPC code of a rejected call (the SDKs and mcpkit all keep it as `code`). */
export async function codeOf(call: Promise<unknown>): Promise<number | undefined> {
  try {
    await call;
    return undefined;
  } catch (error) {
    return (error as { code?: number }).code;
  }
}

/** Resolves with the first event pushed to `events` after now that `accept` takes. */
export function nextEvent(
  events: Record<string, unknown>[],
  accept: (e: Record<string, unknown>) => boolean,
): Promise<Record<string, unknown>> {
  const seen = events.length;
  return new Promise((resolve) => {
    const timer = setInterval(() => {
      const found = events.slice(seen).find(accept);
      if (found !== undefined) {
        clearInterval(timer);
        resolve(found);
      }
    }, 20);
  });
}

/** An SDK v1 session opened by {@link watchedSession}. */
export interface WatchedSession {
  readonly client: ClientV1;
  readonly transport: StreamableHttpV1;
  /** Every HTTP request of the session so far: its method, and its body when a string. */
  readonly requests: { method: string; body: string }[];
  /** Resolves at the next `notifications/tools/list_changed` (call it before the change). */
  readonly told: () => Promise<void>;
  /** How many `notifications/tools/list_changed` it was sent. */
  readonly changes: () => number;
}

/** Opens an SDK v1 session to `url` (with `headers` on each request), watched. */
export async function watchedSession(
  url: string,
  info: { name: string; version: string },
  headers: Record<string, string> = {},
): Promise<WatchedSession> {
  const requests: { method: string; body: string }[] = [];
  const recording = async (input: string | URL | Request, init?: RequestInit) => {
    requests.push({
      method: init?.method ?? 'GET',
      body: typeof init?.body === 'string' ? init.body : '',
    });
    return fetch(input, init);
  };
  const client = new ClientV1(info);
  const transport = new StreamableHttpV1(new URL(url), {
    fetch: recording,
    requestInit: { headers },
  });
  let changes = 0;
  let changed: () => void = () => undefined;
  client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
    changes++;
    changed();
  });
  await client.connect(transport);
  return {
    client,
    transport,
    requests,
    told: () =>
      new Promise<void>((resolve) => {
        changed = resolve;
      }),
    changes: () => changes,
  };
}
