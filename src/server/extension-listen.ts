// The filters extensions add to subscriptions/listen (ServerExtension.listen): agreed when a
// stream opens with their key in `params.notifications`, then watched until it ends.
import type { ExtensionCall, ExtensionListen, ServedSource } from './extension.js';
import { extensionCall } from './extension.js';

/** What a stream agreed with the extensions' filters: their acknowledgements, their watches. */
export interface AgreedListen {
  /** How many filters were agreed (0: none was asked for). */
  readonly length: number;
  /** The agreed filters by key, for `notifications/subscriptions/acknowledged`. */
  acknowledged(): Record<string, unknown>;
  /** Starts every agreed filter's watch; gives the function that stops them all. */
  watch(send: (method: string, params: Record<string, unknown>) => void): () => void;
}

/**
 * Agrees each of `listens` whose key `requested` names, in the order the extensions were added;
 * rejects with the first refusal (the stream is then refused).
 */
export async function agreeListen(
  listens: readonly (readonly [string, ExtensionListen])[],
  call: ServedSource,
  requested: Record<string, unknown>,
): Promise<AgreedListen> {
  const asked = listens.filter(([key]) => requested[key] !== undefined);
  if (asked.length === 0) return NOTHING_AGREED;
  const ext = extensionCall(call);
  const agreed: (readonly [string, ExtensionListen, unknown])[] = [];
  for (const [key, listen] of asked) {
    agreed.push([key, listen, await listen.agree(ext, requested[key])]);
  }
  return new Agreed(ext, agreed);
}

const NOTHING_AGREED: AgreedListen = {
  length: 0,
  acknowledged: () => ({}),
  watch: () => () => undefined,
};

class Agreed implements AgreedListen {
  readonly #call: ExtensionCall;
  readonly #agreed: readonly (readonly [string, ExtensionListen, unknown])[];

  constructor(
    call: ExtensionCall,
    agreed: readonly (readonly [string, ExtensionListen, unknown])[],
  ) {
    this.#call = call;
    this.#agreed = agreed;
  }

  get length(): number {
    return this.#agreed.length;
  }

  acknowledged(): Record<string, unknown> {
    return Object.fromEntries(this.#agreed.map(([key, , value]) => [key, value]));
  }

  watch(send: (method: string, params: Record<string, unknown>) => void): () => void {
    const stops = this.#agreed.map(([, listen, value]) => listen.watch(this.#call, value, send));
    return () => {
      for (const stop of stops) stop();
    };
  }
}
