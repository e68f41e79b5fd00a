// The request bodies the host sends, checked against the official SDKs' types (devDependencies):
// @anthropic-ai/sdk's MessageCreateParams and openai's ChatCompletionCreateParams. The checks are
// at the type level (tsc over the test files): each of our body types must be assignable to the
// SDK's. The test bodies then build a full conversation and check that it type-checks as built.
import type Anthropic from '@anthropic-ai/sdk';
import type OpenAI from 'openai';
import { describe, expect, expectTypeOf, it } from 'vitest';
import type {
  AnthropicRequestBody,
  ModelRequest,
  OpenAiRequestBody,
} from '../../src/host/index.js';
import { anthropicBody, openAiBody } from '../../src/host/index.js';

/** A conversation with every part: text, an image, a tool call and its (failed) result. */
const REQUEST: ModelRequest = {
  model: 'm',
  system: 'be brief',
  maxTokens: 100,
  stream: true,
  temperature: 0.5,
  stopSequences: ['END'],
  toolChoice: { name: 'PingME' },
  tools: [
    { name: 'PingME', description: 'pings', inputSchema: { type: 'object', properties: {} } },
  ],
  messages: [
    {
      role: 'user',
      content: [
        { type: 'text', text: 'Call PingME for me' },
        { type: 'image', data: 'AAAA', mimeType: 'image/png' },
      ],
    },
    {
      role: 'assistant',
      content: [{ type: 'tool_call', id: 't1', name: 'PingME', arguments: {} }],
    },
    {
      role: 'user',
      content: [
        {
          type: 'tool_result',
          toolCallId: 't1',
          isError: true,
          content: [
            { type: 'text', text: 'Error: boom' },
            { type: 'image', data: 'AAAA', mimeType: 'image/png' },
            { type: 'document', data: 'JVBE', mimeType: 'application/pdf', title: 'docs://a.pdf' },
          ],
        },
      ],
    },
  ],
};

describe('request bodies against the official SDK types', () => {
  it('Anthropic: AnthropicRequestBody is a MessageCreateParams', () => {
    expectTypeOf<AnthropicRequestBody>().toExtend<Anthropic.MessageCreateParams>();
    expectTypeOf<AnthropicRequestBody['tools']>().toExtend<
      Anthropic.MessageCreateParams['tools']
    >();
    expectTypeOf<AnthropicRequestBody['tool_choice']>().toExtend<
      Anthropic.MessageCreateParams['tool_choice']
    >();
    const body: Anthropic.MessageCreateParams = anthropicBody(REQUEST);
    expect(body.tool_choice).toEqual({ type: 'tool', name: 'PingME' });
    expect(body.messages[2]).toEqual({
      role: 'user',
      content: [
        {
          type: 'tool_result',
          tool_use_id: 't1',
          is_error: true,
          content: [
            { type: 'text', text: 'Error: boom' },
            { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'AAAA' } },
            {
              type: 'document',
              source: { type: 'base64', media_type: 'application/pdf', data: 'JVBE' },
              title: 'docs://a.pdf',
            },
          ],
        },
      ],
    });
  });

  it('OpenAI: OpenAiRequestBody is a ChatCompletionCreateParams', () => {
    expectTypeOf<OpenAiRequestBody>().toExtend<OpenAI.Chat.ChatCompletionCreateParams>();
    expectTypeOf<OpenAiRequestBody['messages']>().toExtend<
      OpenAI.Chat.ChatCompletionMessageParam[]
    >();
    expectTypeOf<OpenAiRequestBody['tool_choice']>().toExtend<
      OpenAI.Chat.ChatCompletionCreateParams['tool_choice']
    >();
    const body: OpenAI.Chat.ChatCompletionCreateParams = openAiBody(REQUEST);
    expect(body.tool_choice).toEqual({ type: 'function', function: { name: 'PingME' } });
    expect(body.messages.map((m) => m.role)).toEqual([
      'system',
      'user',
      'assistant',
      'tool',
      'user',
    ]);
    expect(body.messages[3]).toEqual({
      role: 'tool',
      tool_call_id: 't1',
      content: 'Error: boom\n[2 media item(s) follow in the next message]',
    });
    expect(body.messages[4]).toEqual({
      role: 'user',
      content: [
        { type: 'image_url', image_url: { url: 'data:image/png;base64,AAAA' } },
        {
          type: 'file',
          file: { file_data: 'data:application/pdf;base64,JVBE', filename: 'a.pdf' },
        },
      ],
    });
  });
});
