// A server's sampling requests answered by the host's model: each request passes the approval
// gate (`approval.sampling`, default ask), is reported as a `sampling` event, and goes to the
// model with no tools; a declined one is a JSON-RPC error to the server. The text of the
// model's answer goes back; images and audio go to the model as parts, tool blocks as JSON text.
import type { InputContext, SampleHandler } from '../client/index.js';
import { JsonRpcError } from '../client/index.js';
import { decide } from './approval.js';
import type { HostEvent, HostOptions } from './host-types.js';
import type { Part, TextPart } from './types.js';

/** What the sampler reads of its host: the options, the model name of the latest run, events. */
export interface SamplingHost {
  readonly options: HostOptions;
  modelName(): string;
  emit(event: HostEvent): void;
}

/** Answers `server`'s sampling requests with the host's model, after the approval gate. */
export function hostSampler(server: string, host: SamplingHost): SampleHandler {
  return async (params, ctx: InputContext) => {
    const summary = params.messages.map((m) => samplingText(m.content)).join('\n');
    const decision = await decide(
      host.options.approval?.sampling ?? 'ask',
      { kind: 'sampling', server, summary },
      host.options.onApproval,
    );
    host.emit({ type: 'sampling', server, decision });
    if (decision === 'declined')
      throw new JsonRpcError(-1, 'the user declined the sampling request');
    const response = await host.options.model.complete(
      {
        model: host.modelName(),
        ...(params.systemPrompt === undefined ? {} : { system: params.systemPrompt }),
        messages: params.messages.map((m) => ({
          role: m.role,
          content: samplingParts(m.content),
        })),
        tools: [],
        toolChoice: 'auto',
        maxTokens: params.maxTokens,
        stream: false,
        ...(params.temperature === undefined ? {} : { temperature: params.temperature }),
        ...(params.stopSequences === undefined ? {} : { stopSequences: params.stopSequences }),
      },
      { signal: ctx.signal },
    );
    const text = response.content
      .filter((part): part is TextPart => part.type === 'text')
      .map((part) => part.text)
      .join('');
    return {
      role: 'assistant',
      content: { type: 'text', text },
      model: response.model ?? host.modelName(),
      stopReason:
        response.stopReason === 'max_tokens'
          ? 'maxTokens'
          : response.stopReason === 'stop_sequence'
            ? 'stopSequence'
            : 'endTurn',
    };
  };
}

type SamplingContent = Parameters<SampleHandler>[0]['messages'][number]['content'];

function samplingBlocks(content: SamplingContent): Exclude<SamplingContent, unknown[]>[] {
  return Array.isArray(content) ? content : [content];
}

function samplingText(content: SamplingContent): string {
  return samplingBlocks(content)
    .map((block) => (block.type === 'text' ? block.text : `[${block.type}]`))
    .join(' ');
}

function samplingParts(content: SamplingContent): Part[] {
  return samplingBlocks(content).map((block): Part => {
    switch (block.type) {
      case 'text':
        return { type: 'text', text: block.text };
      case 'image':
        return { type: 'image', data: block.data, mimeType: block.mimeType };
      case 'audio':
        return { type: 'audio', data: block.data, mimeType: block.mimeType };
      case 'tool_use':
      case 'tool_result':
        return { type: 'text', text: JSON.stringify(block) };
    }
  });
}
