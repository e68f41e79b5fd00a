// The buffered response node-fetch.ts gives: what a Response offers for a body already at hand,
// without the cost of a Response and its Headers unless a caller asks for a stream or a clone.

/** Statuses whose responses have no body. */
export const NO_BODY_STATUS: ReadonlySet<number> = new Set([204, 205, 304]);

/** The headers of a {@link BufferedResponse}: a read-only view of its lower-case map. */
class FieldHeaders {
  readonly #raw: Map<string, string>;

  constructor(raw: Map<string, string>) {
    this.#raw = raw;
  }

  get(name: string): string | null {
    return this.#raw.get(name.toLowerCase()) ?? null;
  }

  has(name: string): boolean {
    return this.#raw.has(name.toLowerCase());
  }

  forEach(callback: (value: string, name: string) => void): void {
    for (const [name, value] of this.#raw) callback(value, name);
  }

  entries(): IterableIterator<[string, string]> {
    return this.#raw.entries();
  }

  keys(): IterableIterator<string> {
    return this.#raw.keys();
  }

  values(): IterableIterator<string> {
    return this.#raw.values();
  }

  [Symbol.iterator](): IterableIterator<[string, string]> {
    return this.#raw.entries();
  }
}

/**
 * A buffered response: status, ok, headers (`get`, `has`, `forEach`, iteration), `text`,
 * `json`, `arrayBuffer`, and `body`, without the cost of a Response and its Headers unless
 * `body` or `clone` is read (then a real Response is made once).
 */
export class BufferedResponse {
  readonly status: number;
  readonly statusText: string;
  readonly ok: boolean;
  readonly redirected = false;
  readonly type = 'basic';
  readonly url = '';
  readonly #raw: Map<string, string>;
  readonly #bytes: Buffer;
  #headers: FieldHeaders | undefined;
  #used = false;
  #full: Response | undefined;

  constructor({
    status,
    statusText,
    raw,
    bytes,
  }: {
    status: number;
    statusText: string;
    raw: Map<string, string>;
    bytes: Buffer;
  }) {
    this.status = status;
    this.statusText = statusText;
    this.ok = status >= 200 && status < 300;
    this.#raw = raw;
    this.#bytes = bytes;
  }

  get headers(): FieldHeaders {
    return (this.#headers ??= new FieldHeaders(this.#raw));
  }

  get bodyUsed(): boolean {
    return this.#used;
  }

  get body(): ReadableStream<Uint8Array> | null {
    if (this.#used) return null;
    this.#used = true;
    return this.#whole().body;
  }

  // The body is at hand: each read settles at once (one promise, no callback).
  text(): Promise<string> {
    return this.#read((bytes) => bytes.toString('utf8'));
  }

  json(): Promise<unknown> {
    return this.#read((bytes) => JSON.parse(bytes.toString('utf8')) as unknown);
  }

  arrayBuffer(): Promise<ArrayBuffer> {
    return this.#read(
      (bytes) =>
        bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length) as ArrayBuffer,
    );
  }

  clone(): Response {
    return this.#whole().clone();
  }

  /** `convert` of the bytes, once: a second read rejects as a Response's does; so does a throw. */
  #read<T>(convert: (bytes: Buffer) => T): Promise<T> {
    if (this.#used) {
      return Promise.reject(new TypeError('Body is unusable: Body has already been read'));
    }
    this.#used = true;
    try {
      return Promise.resolve(convert(this.#bytes));
    } catch (error) {
      return Promise.reject(error instanceof Error ? error : new Error(String(error)));
    }
  }

  #whole(): Response {
    const { status } = this;
    return (this.#full ??= new Response(
      this.#bytes.length === 0 || NO_BODY_STATUS.has(status) ? null : new Uint8Array(this.#bytes),
      {
        status: status >= 200 && status <= 599 ? status : 500,
        statusText: this.statusText,
        headers: [...this.#raw],
      },
    ));
  }
}
