// Shared by the gateway tests that hold a live session: the JSON-RPC code of a refused call, the
// next event a config watch reports, an SDK v1 session that records its HTTP requests and is
// told of tool list changes, and `mcpkit gateway` run in process, its config file rewritten
// (the reload tests).
import { writeFileSync } from 'node:fs';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as StreamableHttpV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { vi } from 'vitest';
import { run } from '../../src/cli/commands/gateway.js';
import { captureIo } from '../helpers/capture-io.js';

/** The JSON-RPC code of a rejected call (the SDKs and mcpkit all keep it as `code`). */
export async function codeOf(call: Promise<unknown>): Promise<number | undefined> {
  try {
    await call;
    return undefined;
  } catch (error) {
    return (error as { code?: number }).code;
  }
}

/** The error a call rejects with; throws when it succeeds. */
export async function failureOf(
  call: Promise<unknown>,
): Promise<{ code?: number; message: string }> {
  try {
    await call;
  } catch (error) {
    return error as { code?: number; message: string };
  }
  throw new Error('the call succeeded');
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
  /**
   * Every HTTP request of the session so far: its method, its body when a string, and the status
   * of its response (0 until answered).
   */
  readonly requests: { method: string; body: string; status: number }[];
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
  const requests: { method: string; body: string; status: number }[] = [];
  const recording = async (input: string | URL | Request, init?: RequestInit) => {
    const request = {
      method: init?.method ?? 'GET',
      body: typeof init?.body === 'string' ? init.body : '',
      status: 0,
    };
    requests.push(request);
    const response = await fetch(input, init);
    request.status = response.status;
    return response;
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

/** `mcpkit gateway` run in this process by {@link serveGateway}. */
export interface ServedGateway {
  /** Resolves with its exit code (send `process.emit('SIGTERM')` to stop it). */
  readonly done: Promise<number>;
  /** Its default endpoint's URL (`…/mcp`). */
  readonly url: string;
  /** What it wrote to stderr so far. */
  readonly stderr: () => string;
}

/** Runs `mcpkit gateway` with `args` in process; resolves once it serves. */
export async function serveGateway(args: string[]): Promise<ServedGateway> {
  const captured = captureIo();
  const done = run(args, captured.io);
  const url = await vi.waitFor(
    () => {
      const match = /serving at (http:\/\/\S+)\n/.exec(captured.stderr());
      if (match === null) throw new Error(`not serving yet: ${captured.stderr()}`);
      return match[1] ?? '';
    },
    { timeout: 15_000 },
  );
  return { done, url, stderr: captured.stderr };
}

/**
 * Writes `config` to `file` and resolves with the reload event (`reloaded`, `reload-refused`)
 * it causes, read from the --json lines of `stderr`.
 */
export async function reloadWith(
  file: string,
  config: unknown,
  stderr: () => string,
): Promise<Record<string, unknown>> {
  const reloads = () =>
    stderr()
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .filter((event) => String(event['event']).startsWith('reload'));
  const seen = reloads().length;
  writeFileSync(file, JSON.stringify(config));
  return vi.waitFor(
    () => {
      const found = reloads()[seen];
      if (found === undefined) throw new Error('not reloaded yet');
      return found;
    },
    { timeout: 15_000, interval: 20 },
  );
}
