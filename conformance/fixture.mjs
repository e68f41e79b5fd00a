// The conformance fixture: one McpServer exposing exactly what the official conformance suite's
// server scenarios call (tools `test_*`, resources `test://…`, prompts `test_*`, the skills of
// conformance/skills/), for 2025-11-25 sessions and 2026-07-28 stateless requests alike. Built
// only from mcpkit's public entries.
import { McpServer } from 'mcpkit/server';
import { tasks } from 'mcpkit/tasks';
import { object, registerAskingFeatures, sleep, text } from './fixture-asks.mjs';
import { registerTaskTools } from './fixture-tasks.mjs';
import { registerSkills } from './fixture-skills.mjs';

/** A 1×1 red PNG, the suite's reference image. */
const PNG =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==';
/** A tiny WAV, the suite's reference audio. */
const WAV = 'UklGRiYAAABXQVZFZm10IBAAAAABAAEAQB8AAAB9AAACABAAZGF0YQIAAAA=';

/** The schema of json-schema-2020-12 (SEP-1613, and SEP-2106's $anchor, allOf/anyOf, if/then/else). */
const JSON_SCHEMA_2020_12 = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  type: 'object',
  $defs: {
    address: {
      $anchor: 'addressDef',
      ...object({ street: { type: 'string' }, city: { type: 'string' } }),
    },
  },
  properties: {
    name: { type: 'string' },
    address: { $ref: '#/$defs/address' },
    contactMethod: { type: 'string', enum: ['phone', 'email'] },
    phone: { type: 'string' },
    email: { type: 'string' },
  },
  allOf: [{ anyOf: [{ required: ['phone'] }, { required: ['email'] }] }],
  if: { properties: { contactMethod: { const: 'phone' } }, required: ['contactMethod'] },
  then: { required: ['phone'] },
  else: { required: ['email'] },
  additionalProperties: false,
};

/**
 * Creates the fixture server (async: its skills are read from disk). `options` are the
 * McpServer's; `fixture.taskStore` is the tasks extension's store (server.mjs --redis: shared);
 * `fixture.shareToggles` keeps the toggled tool and prompt alike on every process.
 */
export async function createConformanceServer(options = {}, fixture = {}) {
  const server = new McpServer(
    { name: 'mcpkit-conformance-fixture', version: '1.0.0' },
    {
      onError: (error, where) => process.stderr.write(`fixture error in ${where}: ${error}\n`),
      // Several processes as one (server.mjs --redis): the shared stateSecret and change bus.
      ...options,
    },
  );
  server.extend(tasks(fixture.taskStore === undefined ? {} : { store: fixture.taskStore }));
  registerContentTools(server);
  registerNotifyingTools(server);
  registerAskingFeatures(server, fixture);
  registerTaskTools(server);
  registerResources(server);
  registerPrompts(server);
  await registerSkills(server);
  return server;
}

/** Tools whose results carry one kind of content each (tools-call-*). */
function registerContentTools(server) {
  server.tool(
    { name: 'test_simple_text', description: 'Returns a simple text response.' },
    () => 'This is a simple text response for testing.',
  );
  server.tool({ name: 'test_image_content', description: 'Returns an image.' }, () => ({
    content: [{ type: 'image', data: PNG, mimeType: 'image/png' }],
  }));
  server.tool({ name: 'test_audio_content', description: 'Returns audio.' }, () => ({
    content: [{ type: 'audio', data: WAV, mimeType: 'audio/wav' }],
  }));
  server.tool({ name: 'test_embedded_resource', description: 'Returns a resource.' }, () => ({
    content: [
      {
        type: 'resource',
        resource: {
          uri: 'test://embedded-resource',
          mimeType: 'text/plain',
          text: 'This is an embedded resource content.',
        },
      },
    ],
  }));
  server.tool(
    { name: 'test_multiple_content_types', description: 'Returns text, image and resource.' },
    () => ({
      content: [
        text('Multiple content types test:'),
        { type: 'image', data: PNG, mimeType: 'image/png' },
        {
          type: 'resource',
          resource: {
            uri: 'test://mixed-content-resource',
            mimeType: 'application/json',
            text: '{"test":"data","value":123}',
          },
        },
      ],
    }),
  );
  server.tool(
    {
      name: 'test_custom_header_tool',
      description: 'Mirrors its region argument into Mcp-Param-Region (SEP-2243).',
      inputSchema: object({ region: { type: 'string', 'x-mcp-header': 'Region' } }, ['region']),
    },
    ({ region }) => `Region: ${String(region)}`,
  );
  server.tool(
    { name: 'test_error_handling', description: 'Always fails with an isError result.' },
    () => {
      throw new Error('This tool intentionally returns an error for testing');
    },
  );
  server.tool(
    {
      name: 'json_schema_2020_12_tool',
      description: 'Tool with JSON Schema 2020-12 features',
      inputSchema: JSON_SCHEMA_2020_12,
    },
    (args) => `Received: ${JSON.stringify(args)}`,
  );
}

/** Tools that send notifications while they run, or cut their own stream. */
function registerNotifyingTools(server) {
  server.tool(
    { name: 'test_tool_with_logging', description: 'Sends three log messages.' },
    async (_args, ctx) => {
      await ctx.log('info', 'Tool execution started');
      await sleep(50);
      await ctx.log('info', 'Tool processing data');
      await sleep(50);
      await ctx.log('info', 'Tool execution completed');
      return 'Logging test completed';
    },
  );
  server.tool(
    { name: 'test_logging_tool', description: 'Logs at info level (2026-07-28 probe).' },
    async (_args, ctx) => {
      await ctx.log('info', 'a log message');
      return 'logged';
    },
  );
  server.tool(
    { name: 'test_tool_with_progress', description: 'Reports progress 0, 50, 100 of 100.' },
    async (_args, ctx) => {
      for (const step of [0, 50, 100]) {
        await ctx.progress(step, 100, `step ${String(step)}`);
        if (step < 100) await sleep(50);
      }
      return 'Progress test completed';
    },
  );
  server.tool(
    {
      name: 'test_reconnection',
      description: 'Closes its own SSE stream, then answers after 100 ms (SSE polling).',
    },
    async (_args, ctx) => {
      ctx.transport?.closeSseStream?.();
      await sleep(100);
      return 'Reconnection test completed';
    },
  );
}

/** The resources of resources-*: static text and binary, a watched one, and a template. */
function registerResources(server) {
  server.resource(
    {
      uri: 'test://static-text',
      name: 'Static text resource',
      description: 'A static text resource.',
      mimeType: 'text/plain',
    },
    (uri) => ({
      contents: [
        { uri, mimeType: 'text/plain', text: 'This is the content of the static text resource.' },
      ],
    }),
  );
  server.resource(
    {
      uri: 'test://static-binary',
      name: 'Static binary resource',
      description: 'A PNG image.',
      mimeType: 'image/png',
    },
    (uri) => ({ contents: [{ uri, mimeType: 'image/png', blob: PNG }] }),
  );
  server.resource(
    {
      uri: 'test://watched-resource',
      name: 'Watched resource',
      description: 'A resource to subscribe to.',
      mimeType: 'text/plain',
    },
    (uri) => ({ contents: [{ uri, mimeType: 'text/plain', text: 'Watched resource content' }] }),
  );
  server.resourceTemplate(
    {
      uriTemplate: 'test://template/{id}/data',
      name: 'Template resource',
      description: 'Data for an id.',
      mimeType: 'application/json',
      complete: { id: (value) => ['123', '456'].filter((id) => id.startsWith(value)) },
    },
    (uri, { id }) => ({
      contents: [
        {
          uri,
          mimeType: 'application/json',
          text: JSON.stringify({ id, templateTest: true, data: `Data for ID: ${String(id)}` }),
        },
      ],
    }),
  );
}

/** The prompts of prompts-*. */
function registerPrompts(server) {
  server.prompt(
    { name: 'test_simple_prompt', description: 'A prompt without arguments.' },
    () => 'This is a simple prompt for testing.',
  );
  const values = ['testValue1', 'testValue2', 'test'];
  server.prompt(
    {
      name: 'test_prompt_with_arguments',
      description: 'A prompt with two arguments.',
      arguments: [
        {
          name: 'arg1',
          description: 'First argument',
          required: true,
          complete: (value) => values.filter((v) => v.startsWith(value)),
        },
        { name: 'arg2', description: 'Second argument', required: true },
      ],
    },
    ({ arg1, arg2 }) => `Prompt with arguments: arg1='${String(arg1)}', arg2='${String(arg2)}'`,
  );
  server.prompt(
    {
      name: 'test_prompt_with_embedded_resource',
      description: 'A prompt that embeds a resource.',
      arguments: [{ name: 'resourceUri', description: 'The resource to embed', required: true }],
    },
    ({ resourceUri }) => [
      {
        role: 'user',
        content: {
          type: 'resource',
          resource: {
            uri: resourceUri,
            mimeType: 'text/plain',
            text: 'Embedded resource content for testing.',
          },
        },
      },
      { role: 'user', content: text('Please process the embedded resource above.') },
    ],
  );
  server.prompt({ name: 'test_prompt_with_image', description: 'A prompt with an image.' }, () => [
    { role: 'user', content: { type: 'image', data: PNG, mimeType: 'image/png' } },
    { role: 'user', content: text('Please analyze the image above.') },
  ]);
}
