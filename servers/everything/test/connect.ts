// Test helper: an everything server over the in-memory pair, spoken to in one era. Legacy eras run
// the `initialize` handshake at their revision; the modern era sends `_meta` on every request.
import type { RequestHandler } from '../../../src/jsonrpc/index.js';
import { MODERN, connectWire, type Wire } from '../../../test/helpers/wire.js';
import type { EverythingServer, EverythingServerOptions } from '../server.js';
import { createEverythingServer } from '../server.js';

/** The eras every end-to-end test runs in: newest legacy, oldest legacy, modern. */
export const ERAS = ['2025-11-25', '2024-11-05', MODERN] as const;

/** One of {@link ERAS}. */
export type Era = (typeof ERAS)[number];

/** A connected everything server. */
export interface Connected {
  w: Wire;
  everything: EverythingServer;
  /** Sends a request in the connection's era. */
  send: (
    method: string,
    params?: Record<string, unknown>,
    meta?: Record<string, unknown>,
  ) => Promise<any>;
  /** Calls a tool in the connection's era. */
  call: (
    name: string,
    args?: Record<string, unknown>,
    meta?: Record<string, unknown>,
  ) => Promise<any>;
  /** Validates every server frame so far against the era's schema. */
  check: () => void;
  close: () => Promise<void>;
}

/** Connects to a fresh everything server in `era`. */
export async function connect(
  era: Era,
  options: {
    server?: EverythingServerOptions;
    capabilities?: object;
    onRequest?: RequestHandler;
  } = {},
): Promise<Connected> {
  const everything = createEverythingServer({ researchStepMs: 0, ...options.server });
  await everything.ready;
  const w = await connectWire(
    everything.server,
    options.onRequest === undefined ? {} : { onRequest: options.onRequest },
  );
  const capabilities = options.capabilities ?? {};
  if (era !== MODERN) await w.initialize(era, capabilities);
  const send: Connected['send'] = (method, params = {}, meta) => {
    if (era === MODERN) {
      return w.modern(method, params, { capabilities, ...(meta === undefined ? {} : { meta }) });
    }
    const withMeta = meta === undefined ? params : { ...params, _meta: meta };
    return w.request(method, withMeta);
  };
  return {
    w,
    everything,
    send,
    call: (name, args = {}, meta) => send('tools/call', { name, arguments: args }, meta),
    check: () => {
      w.assertServerFramesValid(era);
    },
    close: async () => {
      await everything.close();
      await w.close();
    },
  };
}

/** The text blocks of a result, joined by newlines. */
export function textOf(result: { content: { type: string; text?: string }[] }): string {
  return result.content
    .filter((c) => c.type === 'text')
    .map((c) => c.text)
    .join('\n');
}
