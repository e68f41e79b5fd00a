// The golden transcript format (test/transcripts/*.txt, `mcpkit inspect`'s download, `mcpkit
// replay`): header lines (`# ...`, one of them `# revision: R`), then one message a line, `>> `
// and the JSON a client sent, `<< ` and the JSON the server sent. Also the comparison replay
// makes: responses by id, other server messages in order, with what differs between runs of the
// same server (the ids of the server's own requests, its identity in `_meta`) normalised.
import { MetaKey } from '../protocol/index.js';

/** One message of a transcript. */
export interface TranscriptMessage {
  readonly dir: '>>' | '<<';
  readonly message: object;
}

/** A parsed transcript. */
export interface Transcript {
  /** The lines before the first message (comments, `# revision: R`), as written. */
  readonly header: string[];
  /** The revision of `# revision: R`. */
  readonly revision: string;
  /** Each client line and the server lines after it, up to the next client line. */
  readonly steps: { send: string; expect: string[] }[];
}

/** A transcript file that cannot be read, with the line at fault. */
export class TranscriptError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TranscriptError';
  }
}

/**
 * Parses a transcript. Throws TranscriptError for a missing `# revision:` line, a message line
 * that is not a JSON object, or a `<<` line before any `>>` line. Blank lines and `#` lines
 * between messages are skipped.
 */
export function parseTranscript(text: string): Transcript {
  const header: string[] = [];
  const steps: Transcript['steps'] = [];
  text.split(/\r?\n/).forEach((line, index) => {
    const where = `line ${String(index + 1)}`;
    if (line.startsWith('>> ') || line.startsWith('<< ')) {
      const json = line.slice(3);
      let parsed: unknown;
      try {
        parsed = JSON.parse(json);
      } catch {
        throw new TranscriptError(`${where}: not JSON: ${json.slice(0, 80)}`);
      }
      if (typeof parsed !== 'object' || parsed === null) {
        throw new TranscriptError(`${where}: a message must be a JSON object or array`);
      }
      if (line.startsWith('>> ')) steps.push({ send: json, expect: [] });
      else if (steps.length === 0)
        throw new TranscriptError(`${where}: a "<<" line before any ">>" line`);
      else steps.at(-1)?.expect.push(json);
    } else if (steps.length === 0 && line.trim() !== '') {
      header.push(line);
    }
  });
  const revisionLine = header.find((h) => h.startsWith('# revision: '));
  if (revisionLine === undefined) {
    throw new TranscriptError('a transcript needs a "# revision: <revision>" header line');
  }
  return { header, revision: revisionLine.slice('# revision: '.length).trim(), steps };
}

/** Writes a transcript: the header lines, `# revision: R`, a blank line, then the messages. */
export function formatTranscript(transcript: {
  header: readonly string[];
  revision: string;
  messages: readonly TranscriptMessage[];
}): string {
  const header = transcript.header.filter((line) => !line.startsWith('# revision: '));
  const lines = [
    ...header.map((line) => (line.startsWith('#') ? line : `# ${line}`)),
    `# revision: ${transcript.revision}`,
    '',
    ...transcript.messages.map((m) => `${m.dir} ${JSON.stringify(m.message)}`),
  ];
  return `${lines.join('\n')}\n`;
}

/** What replay compares: the server's messages, responses keyed by their request's id. */
export interface ServerMessages {
  /** Responses by the JSON of their id. */
  readonly responses: Map<string, unknown>;
  /** Notifications and the server's requests, in arrival order, normalised. */
  readonly others: unknown[];
}

/** A difference found by {@link compareServerMessages}. */
export interface Difference {
  /** What differs: `response to #3`, or `server message 2`. */
  readonly what: string;
  readonly expected: unknown;
  readonly actual: unknown;
}

/** Sorts messages into responses (by id) and the rest (normalised, in order). */
export function serverMessages(messages: readonly unknown[]): ServerMessages {
  const responses = new Map<string, unknown>();
  const others: unknown[] = [];
  let serverRequests = 0;
  for (const message of messages) {
    const record = asRecord(message);
    if (record === undefined) continue;
    if (record['method'] === undefined && 'id' in record) {
      responses.set(JSON.stringify(record['id']), normalise(record));
      continue;
    }
    // The server numbers its own requests as it likes: compare their order, not their ids.
    const copy = normalise(record) as Record<string, unknown>;
    if ('id' in copy) copy['id'] = `<server request ${String(++serverRequests)}>`;
    others.push(copy);
  }
  return { responses, others };
}

/**
 * The differences between what a transcript expected and what the server sent: each expected
 * response (and any the transcript has not), then the other messages in order.
 */
export function compareServerMessages(
  expected: ServerMessages,
  actual: ServerMessages,
): Difference[] {
  const differences: Difference[] = [];
  const ids = new Set([...expected.responses.keys(), ...actual.responses.keys()]);
  for (const id of ids) {
    const want = expected.responses.get(id);
    const got = actual.responses.get(id);
    if (stable(want) !== stable(got)) {
      differences.push({ what: `response to #${id}`, expected: want, actual: got });
    }
  }
  const count = Math.max(expected.others.length, actual.others.length);
  for (let i = 0; i < count; i++) {
    const want = expected.others[i];
    const got = actual.others[i];
    if (stable(want) !== stable(got)) {
      differences.push({ what: `server message ${String(i + 1)}`, expected: want, actual: got });
    }
  }
  return differences;
}

/** The differences as text: `- expected` and `+ actual` lines under each heading. */
export function formatDifferences(differences: readonly Difference[]): string {
  return differences
    .map((d) => {
      const lines = [`@@ ${d.what}`];
      if (d.expected !== undefined) lines.push(`- ${JSON.stringify(d.expected)}`);
      else lines.push('- (nothing)');
      if (d.actual !== undefined) lines.push(`+ ${JSON.stringify(d.actual)}`);
      else lines.push('+ (nothing)');
      return lines.join('\n');
    })
    .join('\n');
}

/**
 * A copy of a message without what identifies the server run rather than the behaviour: the
 * server's identity in a result's `_meta` (2026-07-28), and `_meta` left empty by that.
 */
export function normalise(message: unknown): unknown {
  const record = asRecord(message);
  if (record === undefined) return message;
  const copy: Record<string, unknown> = { ...record };
  const result = asRecord(copy['result']);
  if (result !== undefined) copy['result'] = withoutServerInfo(result);
  const params = asRecord(copy['params']);
  if (params !== undefined) copy['params'] = withoutServerInfo(params);
  return copy;
}

function withoutServerInfo(body: Record<string, unknown>): Record<string, unknown> {
  const meta = asRecord(body['_meta']);
  if (meta === undefined || !(MetaKey.ServerInfo in meta)) return body;
  const rest = Object.fromEntries(
    Object.entries(meta).filter(([key]) => key !== MetaKey.ServerInfo),
  );
  const copy = { ...body };
  if (Object.keys(rest).length === 0) delete copy['_meta'];
  else copy['_meta'] = rest;
  return copy;
}

/** JSON with object keys sorted, so that key order does not count as a difference. */
export function stable(value: unknown): string {
  if (value === undefined) return 'undefined';
  return JSON.stringify(value, (_key, v: unknown) => {
    const record = asRecord(v);
    if (record === undefined) return v;
    return Object.fromEntries(
      Object.keys(record)
        .sort()
        .map((k) => [k, record[k]]),
    );
  });
}

function asRecord(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}
