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
  const body = response.body;
  if (body === null) return '';
  if (Number(response.headers.get('content-length')) > maxBytes) {
    await body.cancel().catch(() => undefined);
    throw new BodyTooLargeError(maxBytes);
  }
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let text = '';
  let bytes = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return text + decoder.decode();
      bytes += value.byteLength;
      if (bytes > maxBytes) throw new BodyTooLargeError(maxBytes);
      text += decoder.decode(value, { stream: true });
    }
  } catch (error) {
    await reader.cancel().catch(() => undefined);
    throw error;
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
