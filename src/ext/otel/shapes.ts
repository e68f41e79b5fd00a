// What every message of one method, target (tool or prompt name), revision and transport shares:
// the span name, the span's low-cardinality attributes and the histogram's, made once and kept
// (bounded) so that a request only adds its own (request id, session id, resource URI, recorded
// arguments). No I/O, no OpenTelemetry import.
import type { SpanKind, SpanOptions } from '@opentelemetry/api';
import type { Attributes, RecordingOptions } from './conventions.js';
import { Attr, RESOURCE_METHODS, json, metricAttributes } from './conventions.js';

/** The network attributes every message of a transport carries (one object per transport). */
export type Facts = Readonly<Record<string, string | number>>;

/** No network attributes (the server's own messages). */
export const NO_FACTS: Facts = {};
/** A pipe: stdio, or a transport that says nothing of a network. */
export const PIPE: Facts = { [Attr.networkTransport]: 'pipe' };
/** Streamable HTTP, on the server side (the client side adds the server's address and port). */
export const HTTP: Facts = { [Attr.networkTransport]: 'tcp', [Attr.networkProtocol]: 'http' };

/** At most this many shapes are kept; beyond, a message's shape is made for it alone. */
const MAX_SHAPES = 1024;

/**
 * One method's (and target's, revision's, transport's) span name and attributes. The objects it
 * holds are shared by every message of that shape and never written: a message copies
 * `attributes` before adding its own.
 */
export class Shape {
  /** The span name: `{method} {target}`, or the method alone. */
  readonly name: string;
  /** The span's attributes that every message of this shape has. */
  readonly attributes: Attributes;
  /** The histogram's attributes of a success. */
  readonly metric: Attributes;
  /** tools/call: `isError` results classify as `tool_error`. */
  readonly tool: boolean;
  /** A resource method: the URI is the message's own. */
  readonly resource: boolean;
  readonly revision: string | undefined;
  readonly facts: Facts;
  /** The next shape of the same method and target (another revision). */
  next: Shape | undefined;
  /** A named tools/call: its arguments may be recorded. */
  readonly #named: boolean;
  #toolError: Attributes | undefined;

  constructor(
    method: string,
    target: string | undefined,
    where: { revision: string | undefined; facts: Facts },
  ) {
    const { revision, facts } = where;
    this.revision = revision;
    this.facts = facts;
    this.tool = method === 'tools/call';
    this.#named = this.tool && target !== undefined;
    this.resource = RESOURCE_METHODS.has(method);
    const attributes: Attributes = { [Attr.method]: method };
    if (target !== undefined && this.tool) {
      attributes[Attr.toolName] = target;
      attributes[Attr.operation] = 'execute_tool';
    } else if (target !== undefined) {
      attributes[Attr.promptName] = target;
    }
    if (revision !== undefined) attributes[Attr.protocolVersion] = revision;
    Object.assign(attributes, facts);
    this.name = target === undefined ? method : `${method} ${target}`;
    this.attributes = attributes;
    this.metric = metricAttributes(attributes);
  }

  /** The histogram's attributes of an `isError` tools/call result. */
  toolError(): Attributes {
    this.#toolError ??= { ...this.metric, [Attr.errorType]: 'tool_error' };
    return this.#toolError;
  }

  /**
   * The span name and options of one message of this shape, of `kind`: its attributes a copy of
   * `attributes` with the message's resource URI and recorded arguments (as `recording` asks);
   * the request id, session id and links are the caller's to add.
   */
  start(params: Record<string, unknown>, recording: RecordingOptions, kind: SpanKind): SpanStart {
    const attributes = { ...this.attributes };
    let name = this.name;
    if (this.#named) {
      if (recording.toolArguments === true && params['arguments'] !== undefined) {
        attributes[Attr.toolArguments] = json(params['arguments']);
      }
    } else if (this.resource && typeof params['uri'] === 'string') {
      attributes[Attr.resourceUri] = params['uri'];
      if (recording.resourceUriInSpanName === true) name = `${name} ${params['uri']}`;
    }
    return { name, options: { kind, attributes } };
  }
}

/** A span to start: its name and options, the attributes those of one message. */
export interface SpanStart {
  readonly name: string;
  readonly options: SpanOptions & { attributes: Attributes };
}

/** The shapes of one middleware over one transport (`facts`), by method, target and revision. */
export class Shapes {
  readonly facts: Facts;
  readonly #byMethod = new Map<string, Map<string | undefined, Shape>>();
  #count = 0;

  constructor(facts: Facts) {
    this.facts = facts;
  }

  /** The shape of a message of `method` with `params`, in `revision`. */
  of(method: string, params: Record<string, unknown>, revision: string | undefined): Shape {
    const name = params['name'];
    const target =
      (method === 'tools/call' || method === 'prompts/get') && typeof name === 'string'
        ? name
        : undefined;
    let byTarget = this.#byMethod.get(method);
    const first = byTarget?.get(target);
    for (let shape = first; shape !== undefined; shape = shape.next) {
      if (shape.revision === revision) return shape;
    }
    const shape = new Shape(method, target, { revision, facts: this.facts });
    if (this.#count >= MAX_SHAPES) return shape;
    this.#count++;
    if (byTarget === undefined) {
      byTarget = new Map();
      this.#byMethod.set(method, byTarget);
    }
    shape.next = first;
    byTarget.set(target, shape);
    return shape;
  }
}
