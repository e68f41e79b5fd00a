// The page's record of MCP App messages, sent to the wire log in batches (POST /api/apps/log):
// a large message is logged as a stub naming its method, id and size; messages the guard dropped
// are logged as one entry per reason and batch, with their count.
import { appsApi, type AppLogEntry } from '../api';
import type { JsonObject } from '../types';
import type { DropReason } from './guard';

/** Past this size (as JSON) a message is logged as a stub. */
const LOGGED_BYTES = 16 * 1024;
/** Entries per request, and how often the queue is sent. */
const BATCH = 200;
const FLUSH_MS = 150;

const queue: AppLogEntry[] = [];
const drops = new Map<string, { view: string; reason: DropReason; count: number }>();
let timer: ReturnType<typeof setTimeout> | undefined;

/** Queues a message between the page and view `view` for the wire log. */
export function logAppMessage(view: string, dir: '>>' | '<<', message: JsonObject): void {
  let size: number;
  try {
    size = JSON.stringify(message).length;
  } catch {
    size = Infinity;
  }
  const logged =
    size <= LOGGED_BYTES
      ? message
      : {
          jsonrpc: message['jsonrpc'],
          ...(message['method'] === undefined ? {} : { method: message['method'] }),
          ...(message['id'] === undefined ? {} : { id: message['id'] }),
          truncated: `${String(size)} characters, not kept in the log`,
        };
  queue.push({ dir, view, message: logged });
  schedule();
}

/** Counts a message of `view` the guard dropped, for the wire log. */
export function logAppDrop(view: string, reason: DropReason): void {
  const key = `${view}\n${reason}`;
  const known = drops.get(key);
  if (known === undefined) drops.set(key, { view, reason, count: 1 });
  else known.count++;
  schedule();
}

function schedule(): void {
  timer ??= setTimeout(() => {
    timer = undefined;
    void flush();
  }, FLUSH_MS);
}

async function flush(): Promise<void> {
  for (const { view, reason, count } of drops.values()) {
    queue.push({ dir: '>>', view, message: { dropped: REASONS[reason], count } });
  }
  drops.clear();
  while (queue.length > 0) {
    const batch = queue.splice(0, BATCH);
    try {
      await appsApi.log(batch);
    } catch {
      return; // The backend is gone: the page says so elsewhere.
    }
  }
}

/** How a drop is named in the log and on the page. */
export const REASONS: Readonly<Record<DropReason, string>> = {
  rate: 'too many messages (rate limit)',
  size: 'message too large (over 1 MiB)',
  malformed: 'not a JSON-RPC object',
};
