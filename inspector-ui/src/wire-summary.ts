// One line of text for each wire entry (`>> tools/call #3`, `<< tools/call result #3`,
// `HTTP POST 200 text/event-stream`), what the Filter of the Wire tab matches against.
import { isRecord } from './schema';
import type { WireEntry } from './types';

/**
 * The method of each request, by direction and id, so that a response can name the method it
 * answers: feed the entries in order.
 */
export class MethodMemory {
  readonly #methods = new Map<string, string>();

  /** The method `entry` is or answers, when known. */
  methodOf(entry: WireEntry): string | undefined {
    if (entry.kind !== 'jsonrpc') return undefined;
    const { message } = entry;
    const method = typeof message['method'] === 'string' ? message['method'] : entry.method;
    const id = message['id'];
    // An app view numbers its requests apart from the MCP connection, and each view apart.
    const channel = entry.channel === undefined ? '' : `${entry.channel}:${entry.view ?? ''}:`;
    if (typeof message['method'] === 'string') {
      if (typeof id === 'string' || typeof id === 'number') {
        this.#methods.set(`${channel}${entry.dir}${String(id)}`, message['method']);
      }
      return method;
    }
    if (typeof id !== 'string' && typeof id !== 'number') return method;
    const asked = `${channel}${entry.dir === '>>' ? '<<' : '>>'}${String(id)}`;
    return method ?? this.#methods.get(asked);
  }
}

/** The entry as one line. */
export function summarize(entry: WireEntry, method: string | undefined): string {
  if (entry.kind === 'http') {
    const { http } = entry;
    const type = http.headers?.['content-type']?.split(';')[0];
    if (http.sse !== undefined) {
      const id = http.sse.id === undefined ? '' : ` id=${http.sse.id}`;
      return `${entry.dir} SSE ${http.sse.event ?? 'message'}${id}`;
    }
    const parts = [http.method, http.status, type].filter((p) => p !== undefined);
    return `${entry.dir} HTTP ${parts.join(' ')}`;
  }
  const { message } = entry;
  if (entry.channel === 'app') return `app ${summarizeMessage(entry.dir, message, method)}`;
  return summarizeMessage(entry.dir, message, method);
}

function summarizeMessage(
  dir: WireEntry['dir'],
  message: Record<string, unknown>,
  method: string | undefined,
): string {
  if (typeof message['dropped'] === 'string') {
    const count = typeof message['count'] === 'number' ? message['count'] : 1;
    return `${dir} dropped ${String(count)}: ${message['dropped']}`;
  }
  const id = message['id'];
  const idText = typeof id === 'string' || typeof id === 'number' ? ` #${String(id)}` : '';
  if (typeof message['method'] === 'string') return `${dir} ${message['method']}${idText}`;
  const what = 'error' in message ? 'error' : 'result';
  const detail =
    isRecord(message['error']) && typeof message['error']['message'] === 'string'
      ? `: ${message['error']['message']}`
      : '';
  return `${dir} ${method ?? '(response)'} ${what}${idText}${detail}`;
}

/** The headers, timing and session of an HTTP entry, shortly. */
export function httpDetail(entry: WireEntry): string {
  if (entry.kind !== 'http') return '';
  const h = entry.http.headers ?? {};
  const parts: string[] = [];
  if (h['mcp-method'] !== undefined) parts.push(h['mcp-method']);
  if (entry.http.durationMs !== undefined) parts.push(`${Math.round(entry.http.durationMs)} ms`);
  if (h['mcp-session-id'] !== undefined) parts.push(`session ${h['mcp-session-id'].slice(0, 8)}…`);
  return parts.join(' · ');
}
