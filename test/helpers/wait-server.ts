// A server whose one tool, `wait`, runs until its call is cancelled: for the tests of what
// cancels a call in flight (a host's run, code mode's limits, a gateway's forwarding).
import { McpServer } from '../../src/server/server.js';

/** {@link waitServer}: the server to serve, and when its `wait` started and saw its abort. */
export interface WaitServer {
  /** A new server (one per connection or session, as `listen` asks). */
  readonly create: () => McpServer;
  /** Resolves once a `wait` call runs. */
  readonly running: Promise<void>;
  /** Resolves once a `wait` call's signal aborted (the client cancelled it, or its session went). */
  readonly aborted: Promise<void>;
}

/** A server named `slow` whose `wait` tool answers `aborted` once its call is cancelled. */
export function waitServer(): WaitServer {
  let started!: () => void;
  const running = new Promise<void>((resolve) => (started = resolve));
  let sawAbort!: () => void;
  const aborted = new Promise<void>((resolve) => (sawAbort = resolve));
  const create = () => {
    const server = new McpServer({ name: 'slow', version: '1.0.0' });
    server.tool(
      { name: 'wait', description: 'Waits.', inputSchema: { type: 'object' } },
      (_args, ctx) => {
        started();
        return new Promise<string>((resolve) => {
          ctx.signal.addEventListener('abort', () => {
            sawAbort();
            resolve('aborted');
          });
        });
      },
    );
    return server;
  };
  return { create, running, aborted };
}
