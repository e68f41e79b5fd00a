// Reading the body of a fetch Response from a peer that may be hostile: as it streams, and never
// past a cap (a metadata document of gigabytes must not be held in memory to be refused).

/** The rejection of {@link readBodyCapped} when the body is larger than its cap. */
export class BodyTooLargeError extends Error {
  override readonly name = 'BodyTooLargeError';
  /** The cap, in bytes. */
  readonly maxBytes: number;

  constructor(maxBytes: number) {
    super(`the body is larger than ${describeBytes(maxBytes)}`);
    this.maxBytes = maxBytes;
  }
}

/**
 * The body of `response` as UTF-8 text (empty when it has none). Holds at most `maxBytes`: once
 * more has come, the rest of the stream is cancelled unread and the promise rejects with
 * {@link BodyTooLargeError}. A failed read (a reset, the request's signal aborting) rejects with
 * its error. A Content-Length above the cap is refused before any of the body is read.
 */
export async function readBodyCapped(response: Response, maxBytes: number): Promise<string> {
  if (Number(response.headers.get('content-length')) > maxBytes) {
    await response.body?.cancel().catch(() => undefined);
    throw new BodyTooLargeError(maxBytes);
  }
  const prefix = await readBodyPrefix(response, maxBytes + 1);
  // eslint-disable-next-line @typescript-eslint/only-throw-error -- the read's own rejection, as it came
  if (prefix.error !== undefined) throw prefix.error;
  if (!prefix.complete) throw new BodyTooLargeError(maxBytes);
  return prefix.text;
}

/** What {@link readBodyPrefix} read of a body. */
export interface BodyPrefix {
  /** The text read, decoded as UTF-8. */
  readonly text: string;
  /** True when the body ended before `stopAt` bytes had come and no read failed. */
  readonly complete: boolean;
  /** The error of a failed read, when one failed. */
  readonly error?: unknown;
}

/**
 * Reads the body of `response` as UTF-8 text until it ends or `stopAt` bytes have come (the text
 * then holds the chunk that reached it, and the rest of the stream is cancelled unread). Never
 * throws: a failed read gives what was read before it, with the error.
 */
export async function readBodyPrefix(response: Response, stopAt: number): Promise<BodyPrefix> {
  const body = response.body;
  if (body === null) return { text: '', complete: true };
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let text = '';
  let bytes = 0;
  try {
    while (bytes < stopAt) {
      const { done, value } = await reader.read();
      if (done) return { text: text + decoder.decode(), complete: true };
      bytes += value.byteLength;
      text += decoder.decode(value, { stream: true });
    }
    await reader.cancel().catch(() => undefined);
    return { text, complete: false };
  } catch (error) {
    await reader.cancel().catch(() => undefined);
    return { text, complete: false, error };
  }
}

/** `1 MiB`, `64 KiB`, or a count of bytes. */
export function describeBytes(bytes: number): string {
  if (bytes >= 1024 * 1024 && bytes % (1024 * 1024) === 0) {
    return `${String(bytes / (1024 * 1024))} MiB`;
  }
  if (bytes >= 1024 && bytes % 1024 === 0) return `${String(bytes / 1024)} KiB`;
  return `${String(bytes)} bytes`;
}
