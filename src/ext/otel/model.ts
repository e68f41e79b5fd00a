// The host's side of a trace, by OpenTelemetry's GenAI conventions (gen-ai-spans.md, status
// Development): a CLIENT span `chat {model}` around each model call (a wrapper of the host's
// model adapter), and an INTERNAL span `invoke_agent {name}` around a whole run (the model calls
// and the tool calls it makes), so that a run through a gateway to servers is one trace, the
// agent's span its root.
import type { Span } from '@opentelemetry/api';
import { otelApi } from './api.js';
import type { Api } from './api.js';
import type { Attributes } from './conventions.js';
import { Attr, errorAttributes } from './conventions.js';
import { SCOPE } from './meters.js';
import type { TelemetryOptions } from './record.js';

/** GenAI attribute names. */
export const GenAiAttr = {
  operation: 'gen_ai.operation.name',
  provider: 'gen_ai.provider.name',
  agentName: 'gen_ai.agent.name',
  requestModel: 'gen_ai.request.model',
  maxTokens: 'gen_ai.request.max_tokens',
  temperature: 'gen_ai.request.temperature',
  responseModel: 'gen_ai.response.model',
  finishReasons: 'gen_ai.response.finish_reasons',
  inputTokens: 'gen_ai.usage.input_tokens',
  outputTokens: 'gen_ai.usage.output_tokens',
} as const;

/** What tracedModel needs of a model adapter (mcpkit/host's ModelAdapter fits). */
export interface TraceableModel {
  readonly provider: string;
  complete(
    request: { readonly model: string; readonly maxTokens?: number; readonly temperature?: number },
    options?: never,
  ): Promise<{
    readonly model?: string;
    readonly stopReason?: string;
    readonly usage?: { readonly inputTokens: number; readonly outputTokens: number };
  }>;
}

type ModelCall = Parameters<TraceableModel['complete']>[0];

/**
 * `adapter` with each `complete` in a CLIENT span `chat {model}`: the provider, the requested and
 * answering model, `max_tokens`, temperature, the finish reason and the token usage; a failure
 * sets `error.type`. Never the messages (they may be sensitive). Without `@opentelemetry/api`,
 * `adapter` itself.
 */
export function tracedModel<T extends TraceableModel>(
  adapter: T,
  options: TelemetryOptions = {},
): T {
  const api = otelApi;
  if (api === undefined) return adapter;
  const complete = adapter.complete.bind(adapter) as (
    request: ModelCall,
    options?: unknown,
  ) => ReturnType<TraceableModel['complete']>;
  const traced = (request: ModelCall, callOptions?: unknown) => {
    const attributes: Attributes = {
      [GenAiAttr.operation]: 'chat',
      [GenAiAttr.provider]: adapter.provider,
      [GenAiAttr.requestModel]: request.model,
    };
    if (request.maxTokens !== undefined) attributes[GenAiAttr.maxTokens] = request.maxTokens;
    if (request.temperature !== undefined) attributes[GenAiAttr.temperature] = request.temperature;
    const span = tracer(api, options).startSpan(`chat ${request.model}`, {
      kind: api.SpanKind.CLIENT,
      attributes,
    });
    const run = () => complete(request, callOptions);
    return api.context.with(api.trace.setSpan(api.context.active(), span), run).then(
      (response) => {
        const done: Attributes = {};
        if (response.model !== undefined) done[GenAiAttr.responseModel] = response.model;
        if (response.usage !== undefined) {
          done[GenAiAttr.inputTokens] = response.usage.inputTokens;
          done[GenAiAttr.outputTokens] = response.usage.outputTokens;
        }
        span.setAttributes(done);
        if (response.stopReason !== undefined) {
          span.setAttribute(GenAiAttr.finishReasons, [response.stopReason]);
        }
        span.end();
        return response;
      },
      (error: unknown) => {
        fail(api, span, error);
        throw error;
      },
    );
  };
  return withMethod(adapter, 'complete', traced);
}

/**
 * `target` with `name` replaced by `method`: a proxy whose other fields and methods are the
 * target's own, run on it (a class with private fields works as it did).
 */
export function withMethod<T extends object>(target: T, name: string, method: unknown): T {
  return new Proxy(target, {
    get(object, key) {
      if (key === name) return method;
      const value: unknown = Reflect.get(object, key);
      return typeof value === 'function' ? (value as () => unknown).bind(object) : value;
    },
  });
}

/**
 * Runs `run` in an INTERNAL span `invoke_agent {agent}` (`gen_ai.agent.name`, the provider and
 * model when given): the model calls and tool calls made inside are its children. Without
 * `@opentelemetry/api`, just `run()`.
 */
export function agentSpan<T>(
  agent: { readonly name: string; readonly provider?: string; readonly model?: string },
  run: () => Promise<T>,
  options: TelemetryOptions = {},
): Promise<T> {
  const api = otelApi;
  if (api === undefined) return run();
  const attributes: Attributes = {
    [GenAiAttr.operation]: 'invoke_agent',
    [GenAiAttr.agentName]: agent.name,
  };
  if (agent.provider !== undefined) attributes[GenAiAttr.provider] = agent.provider;
  if (agent.model !== undefined) attributes[GenAiAttr.requestModel] = agent.model;
  const span = tracer(api, options).startSpan(`invoke_agent ${agent.name}`, {
    kind: api.SpanKind.INTERNAL,
    attributes,
  });
  return api.context.with(api.trace.setSpan(api.context.active(), span), run).then(
    (value) => {
      span.end();
      return value;
    },
    (error: unknown) => {
      fail(api, span, error);
      throw error;
    },
  );
}

function tracer(api: Api, options: TelemetryOptions) {
  return (options.tracerProvider ?? api.trace.getTracerProvider()).getTracer(SCOPE);
}

function fail(api: Api, span: Span, error: unknown): void {
  const attributes: Attributes = {};
  const message = errorAttributes(error, attributes);
  const status = (error as { status?: unknown } | null)?.status;
  if (typeof status === 'number') attributes[Attr.errorType] = String(status);
  span.setAttributes(attributes);
  span.setStatus(
    message === undefined
      ? { code: api.SpanStatusCode.ERROR }
      : { code: api.SpanStatusCode.ERROR, message },
  );
  span.end();
}
