// The capabilities a client declares: derived from the handlers it was given, overridden by
// explicit ones, and trimmed to what each revision's ClientCapabilities defines (elicitation
// arrived in 2025-06-18, its modes and sampling tools in 2025-11-25, roots list_changed left
// in 2026-07-28; extensions in every revision).
import { isObject } from '../internal/json.js';
import type * as Spec from '../protocol/schema/2026-07-28.js';
import type { ProtocolRevision } from '../protocol/version.js';
import { eraOf } from '../protocol/version.js';
import type { ClientOptions } from './types.js';

type Capabilities = Record<string, unknown>;

/** The capabilities the handlers in `options` imply, with `options.capabilities` on top. */
export function deriveCapabilities(options: ClientOptions): Spec.ClientCapabilities {
  const derived: Capabilities = {};
  if (options.onElicit !== undefined) {
    derived['elicitation'] =
      options.elicitation?.url === true ? { form: {}, url: {} } : { form: {} };
  }
  if (options.onSample !== undefined) {
    derived['sampling'] = options.sampling?.tools === true ? { tools: {} } : {};
  }
  if (options.onRoots !== undefined) derived['roots'] = { listChanged: true };
  return { ...derived, ...options.capabilities };
}

/**
 * `declared`, trimmed to the shape `revision` defines; an extension is kept when `declaredIn`
 * says it is declared in this revision.
 */
export function capabilitiesFor(
  declared: Spec.ClientCapabilities,
  revision: ProtocolRevision,
  declaredIn: (id: string) => boolean = () => true,
): Spec.ClientCapabilities {
  const source = declared as Capabilities;
  const result: Capabilities = {};
  const modern = eraOf(revision) === 'modern';
  const since20251125 = revision === '2025-11-25' || modern;
  if (isObject(source['experimental'])) result['experimental'] = source['experimental'];
  const extensions = source['extensions'];
  if (isObject(extensions)) {
    // Extensions are declared in every revision (SEP-1724; MCP Apps shows them in a 2024-11-05
    // initialize; the older schemas allow the field), each in those it says (ClientExtension).
    const declared = Object.fromEntries(
      Object.entries(extensions).filter(([id]) => declaredIn(id)),
    );
    if (Object.keys(declared).length > 0) result['extensions'] = declared;
  }
  const roots = source['roots'];
  if (isObject(roots)) result['roots'] = modern ? {} : pick(roots, ['listChanged']);
  const sampling = source['sampling'];
  if (isObject(sampling))
    result['sampling'] = since20251125 ? pick(sampling, ['context', 'tools']) : {};
  const elicitation = source['elicitation'];
  if (isObject(elicitation) && revision !== '2024-11-05' && revision !== '2025-03-26') {
    // 2025-06-18 knows form mode only, declared as a bare object.
    result['elicitation'] = since20251125 ? pick(elicitation, ['form', 'url']) : {};
  }
  return result;
}

function pick(source: Capabilities, keys: readonly string[]): Capabilities {
  const result: Capabilities = {};
  for (const key of keys) if (source[key] !== undefined) result[key] = source[key];
  return result;
}
