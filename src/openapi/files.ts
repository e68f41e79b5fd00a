// A file for a multipart field: base64 in the arguments, or a resource link (`{ uri }`) whose
// bytes are fetched (http(s), through the same guarded client: private addresses refused beyond
// the API's own host, no credentials sent) or decoded (`data:` URIs).
import type { SendOptions } from './http.js';
import { HttpFailure, send } from './http.js';

/** A file's bytes and what to call it. */
export interface FilePart {
  readonly bytes: Uint8Array;
  readonly name: string;
  readonly type: string | undefined;
}

/** Arguments that cannot make a request (a missing path value, bad base64). */
export class ArgumentError extends Error {}

/** The input schema of a file field. */
export const FILE_FIELD_SCHEMA: Readonly<Record<string, unknown>> = {
  anyOf: [
    { type: 'string', contentEncoding: 'base64' },
    {
      type: 'object',
      properties: {
        uri: { type: 'string' },
        name: { type: 'string' },
        mimeType: { type: 'string' },
      },
      required: ['uri'],
    },
  ],
  description: 'the file: base64, or a resource link {"uri"} (http(s) or data:) to read it from',
};

/** Decodes base64 text. Throws ArgumentError naming `field` when it is not base64. */
export function base64(text: string, field: string): Buffer {
  if (!/^[A-Za-z0-9+/_-]*={0,2}$/.test(text.replace(/\s+/g, ''))) {
    throw new ArgumentError(`"${field}" must be base64-encoded`);
  }
  return Buffer.from(text, 'base64');
}

/** The file given for `field`. Throws ArgumentError or HttpFailure. */
export async function filePart(
  value: unknown,
  field: string,
  http: Omit<SendOptions, 'credentialed'>,
): Promise<FilePart> {
  if (typeof value === 'string')
    return { bytes: base64(value, field), name: field, type: undefined };
  const link = value as { uri?: unknown; name?: unknown; mimeType?: unknown } | null;
  if (typeof link?.uri !== 'string') {
    throw new ArgumentError(`"${field}" must be base64 text or a resource link with a "uri"`);
  }
  const name = typeof link.name === 'string' ? link.name : field;
  const declared = typeof link.mimeType === 'string' ? link.mimeType : undefined;
  let url: URL;
  try {
    url = new URL(link.uri);
  } catch {
    throw new ArgumentError(`"${field}": "${link.uri}" is not a URL`);
  }
  if (url.protocol === 'data:') {
    const data = await (await fetch(url)).arrayBuffer();
    return { bytes: new Uint8Array(data), name, type: declared };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ArgumentError(
      `"${field}": only http(s) and data: links can be read, not ${url.protocol}`,
    );
  }
  const response = await send(
    { method: 'GET', url, headers: {} },
    { ...http, credentialed: false },
  );
  if (response.status >= 400 || response.truncated) {
    throw new HttpFailure(
      `"${field}": ${url.href} answered ${response.truncated ? 'more bytes than allowed' : `HTTP ${String(response.status)}`}`,
    );
  }
  const type = declared ?? response.headers['content-type'];
  return { bytes: new Uint8Array(response.body), name, type };
}
