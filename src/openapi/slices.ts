// Large answers, shaped as the host shapes results: cut to a budget of characters, with the rest
// kept for a while and readable in slices of the same size as resources
// (`openapi-result://<id>/<n>`), linked from the cut result.
import { randomUUID } from 'node:crypto';

/** The URI template of the slices of cut answers. */
export const SLICE_TEMPLATE = 'openapi-result://{id}/{slice}';

/** How many cut answers are kept (the oldest is forgotten first). */
const KEPT = 32;

/** A resource link to slice `slice` of a kept answer. */
export interface SliceLink {
  type: 'resource_link';
  uri: string;
  name: string;
  mimeType: string;
}

/** Cut answers, kept in memory (at most {@link KEPT}), read in slices of `sliceChars`. */
export class Slices {
  readonly #texts = new Map<string, string>();
  readonly sliceChars: number;

  constructor(sliceChars: number) {
    this.sliceChars = sliceChars;
  }

  /** Keeps `text` (longer than a slice) and links its second slice. */
  keep(text: string): SliceLink {
    const id = randomUUID();
    this.#texts.set(id, text);
    for (const old of this.#texts.keys()) {
      if (this.#texts.size <= KEPT) break;
      this.#texts.delete(old);
    }
    return link(id, 1, this.count(text));
  }

  /** The number of slices of `text`. */
  count(text: string): number {
    return Math.ceil(text.length / this.sliceChars);
  }

  /** Slice `slice` (0-based) of answer `id`, ending with a link to the next; undefined if gone. */
  read(id: string, slice: number): string | undefined {
    const text = this.#texts.get(id);
    if (text === undefined || !Number.isInteger(slice) || slice < 0) return undefined;
    const total = this.count(text);
    if (slice >= total) return undefined;
    const part = text.slice(slice * this.sliceChars, (slice + 1) * this.sliceChars);
    return slice + 1 < total
      ? `${part}\n… [slice ${String(slice + 1)} of ${String(total)}; the next: openapi-result://${id}/${String(slice + 1)}]`
      : part;
  }
}

function link(id: string, slice: number, total: number): SliceLink {
  return {
    type: 'resource_link',
    uri: `openapi-result://${id}/${String(slice)}`,
    name: `the rest of the answer (slice ${String(slice + 1)} of ${String(total)})`,
    mimeType: 'text/plain',
  };
}

/**
 * Structured content within `maxChars` of compact JSON, for an answer whose text was cut: a
 * list's first items, an object's first fields, a string's start, each kept whole while they fit
 * (output schemas are lean, without required fields, so what is kept still matches them).
 * `wrapped`: the answer is `{ result }`, and `result` is what is shortened.
 */
export function fitStructured(
  data: Record<string, unknown>,
  { wrapped, maxChars }: { wrapped: boolean; maxChars: number },
): Record<string, unknown> {
  if (JSON.stringify(data).length <= maxChars) return data;
  if (wrapped) {
    const result = data['result'];
    const room = maxChars - '{"result":}'.length;
    if (Array.isArray(result)) return { result: fitting(result, room) };
    if (typeof result === 'string') return { result: result.slice(0, room - 2) };
    return data;
  }
  const entries = fitting(Object.entries(data), maxChars);
  return Object.fromEntries(entries);
}

/** The first items of `list` whose compact JSON adds up to at most `maxChars`. */
function fitting<T>(list: readonly T[], maxChars: number): T[] {
  const kept: T[] = [];
  let used = 2;
  for (const item of list) {
    used += JSON.stringify(item).length + 1;
    if (used > maxChars) break;
    kept.push(item);
  }
  return kept;
}
