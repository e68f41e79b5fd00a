// The gateway's audit log: one JSON line per call (tools/call, prompts/get, resources/read) with
// who made it, where it went, what the policy decided and how it ended; a hash of the arguments
// always, the arguments themselves only when the config says so. Lines go to stdout or to a file
// opened for appending (rotation is the platform's, logrotate's copytruncate works), those of one
// turn of the event loop in one write.
import { hash } from 'node:crypto';
import { closeSync, openSync, writeSync } from 'node:fs';
import process from 'node:process';
import { isPlainJsonString } from '../internal/json.js';

/** One line of the audit log. */
export interface AuditRecord {
  /** When the call arrived (ISO 8601). */
  readonly time: string;
  readonly principal: {
    readonly subject?: string;
    readonly clientId?: string;
    readonly source: 'token' | 'header' | 'anonymous';
  };
  /** The endpoint (`default` for `/mcp`). */
  readonly endpoint: string;
  readonly method: 'tools/call' | 'prompts/get' | 'resources/read';
  /** The upstream it went to (absent when the name is none the endpoint serves). */
  readonly upstream?: string;
  /** The upstream's own name of the tool (or prompt), or the URI read. */
  readonly tool?: string;
  readonly prompt?: string;
  readonly resource?: string;
  /** The name (or URI) the client called. */
  readonly called: string;
  /** `allow`; `deny` (hidden from the caller, or arguments refused); `unknown` (not served). */
  readonly decision: 'allow' | 'deny' | 'unknown';
  /** Why a call was denied: `hidden` or `arguments`. */
  readonly reason?: 'hidden' | 'arguments';
  /**
   * `ok`; `tool-error` (an `isError` result); `rate-limited` (refused by a rate limit, before the
   * upstream); `error` (a JSON-RPC error, `code` set); `refused`.
   */
  readonly outcome: 'ok' | 'tool-error' | 'rate-limited' | 'error' | 'refused';
  readonly code?: number;
  /** The policy rules that applied to the caller (absent without policies). */
  readonly rules?: readonly string[];
  readonly durationMs: number;
  /** `sha256:` and the hex digest of the arguments as canonical JSON (keys sorted). */
  readonly argumentsHash: string;
  readonly arguments?: unknown;
}

/** Receives each audit record (a sink must not throw). */
export type AuditSink = (record: AuditRecord) => void;

/** An audit log writing JSON lines to a stream, and closing it (a file) when asked. */
export interface AuditLog {
  readonly sink: AuditSink;
  /** Ends the file (stdout is left open). */
  close(): Promise<void>;
}

/**
 * Opens an audit log: `'-'` or `'stdout'` writes to `stdout`, anything else is a file opened for
 * appending (created when missing, mode 0600). The lines of one turn of the event loop are
 * written together at its end, to a file synchronously (a write per turn, not per call); what is
 * still unwritten is written when the log is closed or the process exits, so no line is lost. A
 * failure to open or write is passed to `onError`, once per failure.
 */
export function openAuditLog(
  to: string,
  options: { stdout?: { write(text: string): unknown }; onError?: (error: unknown) => void } = {},
): AuditLog {
  const fail = (error: unknown) => options.onError?.(error);
  if (to === '-' || to === 'stdout') {
    const stdout = options.stdout ?? process.stdout;
    return batched((text) => {
      stdout.write(text);
    }, fail);
  }
  let fd: number | undefined;
  try {
    fd = openSync(to, 'a', 0o600);
  } catch (error) {
    fail(error);
  }
  const log = batched((text) => {
    if (fd !== undefined) writeAll(fd, Buffer.from(text));
  }, fail);
  return {
    sink: log.sink,
    close: async () => {
      await log.close();
      if (fd !== undefined) closeSync(fd);
      fd = undefined;
    },
  };
}

/** A log whose lines are handed to `write` once per turn of the event loop, and at exit. */
function batched(write: (text: string) => void, fail: (error: unknown) => void): AuditLog {
  let pending = '';
  let scheduled = false;
  const flush = () => {
    scheduled = false;
    if (pending === '') return;
    const text = pending;
    pending = '';
    try {
      write(text);
    } catch (error) {
      fail(error);
    }
  };
  process.on('exit', flush);
  return {
    sink: (record) => {
      pending += `${auditLine(record)}\n`;
      if (scheduled) return;
      scheduled = true;
      setImmediate(flush);
    },
    close: () => {
      flush();
      process.off('exit', flush);
      return Promise.resolve();
    },
  };
}

/**
 * The JSON line of `record` (without its newline): the fields of {@link AuditRecord} in the
 * order it declares them, those undefined left out, each as JSON.stringify writes it (so a
 * record made in that order is written as JSON.stringify(record) writes it). A frozen object or
 * array (a principal, the rules) is serialised once; a short string that needs no escape is
 * quoted as is.
 */
export function auditLine(record: AuditRecord): string {
  // Each field's text starts with a comma; the first one's is dropped at the end.
  const r = record as Partial<AuditRecord>;
  let line = r.time === undefined ? '' : text(',"time":', r.time);
  if (r.principal !== undefined) line += value(',"principal":', r.principal);
  if (r.endpoint !== undefined) line += text(',"endpoint":', r.endpoint);
  if (r.method !== undefined) line += text(',"method":', r.method);
  if (r.upstream !== undefined) line += text(',"upstream":', r.upstream);
  if (r.tool !== undefined) line += text(',"tool":', r.tool);
  if (r.prompt !== undefined) line += text(',"prompt":', r.prompt);
  if (r.resource !== undefined) line += text(',"resource":', r.resource);
  if (r.called !== undefined) line += text(',"called":', r.called);
  if (r.decision !== undefined) line += text(',"decision":', r.decision);
  if (r.reason !== undefined) line += text(',"reason":', r.reason);
  if (r.outcome !== undefined) line += text(',"outcome":', r.outcome);
  if (r.code !== undefined) line += value(',"code":', r.code);
  if (r.rules !== undefined) line += value(',"rules":', r.rules);
  if (r.durationMs !== undefined) line += value(',"durationMs":', r.durationMs);
  if (r.argumentsHash !== undefined) line += text(',"argumentsHash":', r.argumentsHash);
  if (r.arguments !== undefined) line += value(',"arguments":', r.arguments);
  return line === '' ? '{}' : `{${line.slice(1)}}`;
}

/** `key` and the JSON of the string `item` (a field typed string; anything else as JSON). */
function text(key: string, item: unknown): string {
  return typeof item === 'string' && isPlainJsonString(item)
    ? key + '"' + item + '"'
    : value(key, item);
}

/** `key` and the JSON of `item`, or nothing when JSON.stringify leaves it out. */
function value(key: string, item: unknown): string {
  if (typeof item === 'number') return key + (Number.isFinite(item) ? String(item) : 'null');
  let json: string | undefined;
  if (typeof item === 'object' && item !== null) {
    json = frozenJson.get(item);
    if (json === undefined) {
      json = stringify(item);
      if (json !== undefined && Object.isFrozen(item)) frozenJson.set(item, json);
    }
  } else {
    json = stringify(item);
  }
  return json === undefined ? '' : key + json;
}

/** JSON.stringify as it is: undefined for what it leaves out (a toJSON giving undefined too). */
const stringify = JSON.stringify as (value: unknown) => string | undefined;

/** The JSON of frozen objects (never changed: written once). */
const frozenJson = new WeakMap<object, string>();

/** Writes all of `bytes` at the end of the file `fd` (opened for appending). */
function writeAll(fd: number, bytes: Buffer): void {
  let done = 0;
  while (done < bytes.length) done += writeSync(fd, bytes, done, bytes.length - done);
}

/** The minute auditTime last wrote, and its text up to the seconds (`2026-11-27T01:38:`). */
let minute = Number.NaN;
let minuteText = '';
/** 10000-01-01T00:00:00Z, from which toISOString writes six digits of year. */
const YEAR_10000 = 253_402_300_800_000;

/**
 * The time `now` (milliseconds since the epoch, default the present) as Date#toISOString writes
 * it, for a record's `time`: the text up to the minute is kept, so a call costs a few string
 * operations, not a Date and its formatting.
 */
export function auditTime(now: number = Date.now()): string {
  // Outside years 1970-9999 (or a fraction of a millisecond) as Date writes it.
  if (!(now >= 0 && now < YEAR_10000) || !Number.isInteger(now)) return new Date(now).toISOString();
  const within = now % 60_000;
  if (now - within !== minute) {
    minute = now - within;
    minuteText = new Date(minute).toISOString().slice(0, 17);
  }
  const seconds = Math.floor(within / 1000);
  const millis = within % 1000;
  return `${minuteText}${seconds < 10 ? '0' : ''}${String(seconds)}.${millis < 10 ? '00' : millis < 100 ? '0' : ''}${String(millis)}Z`;
}

/** The hash of `value` as canonical JSON (object keys sorted at every depth). */
export function argumentsHash(value: unknown): string {
  // One call of crypto.hash, not a Hash object per record (6,000 instructions against 9,600).
  return `sha256:${hash('sha256', canonicalJson(value), 'hex')}`;
}

/** How deep canonical JSON goes; deeper values hash as their plain JSON (bounded work). */
const MAX_DEPTH = 64;

/**
 * JSON with object keys sorted, so equal arguments hash alike whatever their order. Below
 * {@link MAX_DEPTH} levels a value is written as JSON.stringify writes it (or `null` when even
 * that fails: a stranger's arguments must not break the call).
 */
export function canonicalJson(value: unknown, depth = 0): string {
  // Most arguments are canonical already (parsed JSON, keys in order): JSON.stringify writes them.
  if (depth === 0 && inOrder(value, 0)) return plainJson(value);
  if (depth >= MAX_DEPTH) {
    try {
      return plainJson(value);
    } catch {
      return 'null';
    }
  }
  if (Array.isArray(value))
    return `[${value.map((item) => canonicalJson(item, depth + 1)).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, item]) => item !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    const parts = entries.map(
      ([key, item]) => `${JSON.stringify(key)}:${canonicalJson(item, depth + 1)}`,
    );
    return `{${parts.join(',')}}`;
  }
  return plainJson(value);
}

/**
 * Whether JSON.stringify writes `value` as canonicalJson would: only strings, finite or not
 * numbers, booleans, null, plain arrays and plain objects whose own keys are in sorted order
 * and whose values are none undefined, all within {@link MAX_DEPTH} levels.
 */
function inOrder(value: unknown, depth: number): boolean {
  if (typeof value !== 'object' || value === null) {
    return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';
  }
  if (depth >= MAX_DEPTH - 1) return false;
  if (Array.isArray(value)) {
    if (Object.getPrototypeOf(value) !== Array.prototype) return false;
    for (const item of value) if (!inOrder(item, depth + 1)) return false;
    return true;
  }
  const prototype: unknown = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== null) return false;
  let previous: string | undefined;
  for (const key in value) {
    if (!Object.hasOwn(value, key) || (previous !== undefined && !(previous < key))) return false;
    if (!inOrder((value as Record<string, unknown>)[key], depth + 1)) return false;
    previous = key;
  }
  return true;
}

/** JSON.stringify, `null` for what it leaves out (undefined, functions). */
function plainJson(value: unknown): string {
  const text = JSON.stringify(value) as string | undefined;
  return text ?? 'null';
}
