// everything's tools: one per protocol feature. Some take zod 4 schemas (z.strictObject), some
// raw JSON Schema, to show both. While simulated logging is on, every call also sends one log
// message at a random level (see register.ts). The interactive tools are in interactive.ts.
import { z } from 'zod';
import type { McpServer } from '../../src/server/index.js';
import type { Spec20260728 } from '../../src/protocol/index.js';
import type { EverythingState } from './content.js';
import {
  MAX_GZIPPED,
  listedResources,
  readDemoResource,
  toResourceContents,
  updatedUris,
} from './content.js';
import { registerInteractive } from './interactive.js';
import type { MessageType } from './logic.js';
import type { Register, ToolSettings } from './register.js';
import { NO_ARGS, READ_ONLY, createRegister } from './register.js';
import {
  MAX_DYNAMIC_ID,
  MESSAGE_TYPES,
  TINY_PNG_BASE64,
  WEATHER_LOCATIONS,
  allowedEnv,
  annotatedMessage,
  describeSum,
  dynamicUri,
  gzipBytes,
  toBase64,
  weatherAt,
} from './logic.js';

/** Most bytes gzip-file-as-resource accepts inline. */
export const MAX_INLINE_BYTES = 65_536;

/** Registers every tool of the everything server. */
export function registerTools(
  server: McpServer,
  state: EverythingState,
  settings: ToolSettings,
): void {
  const register = createRegister(server, state, settings);
  registerBasics(register, settings);
  registerMediaTools(register);
  registerResourceLinks(register);
  registerResourceReference(register, state);
  registerGzip(register, state);
  registerToggles(register, { server, state, settings });
  registerInteractive(register, settings);
}

/** The tools that take and return plain values: echo, get-sum, get-env, get-structured-content. */
function registerBasics(register: Register, settings: ToolSettings): void {
  register(
    {
      name: 'echo',
      description: 'Echoes a message back. Use it to test passing a string argument.',
      inputSchema: z.strictObject({
        message: z.string().min(1).max(10_000).describe('The text to echo.'),
      }),
      annotations: READ_ONLY,
    },
    ({ message }) => `Echo: ${message}`,
  );
  register(
    {
      name: 'get-sum',
      description: 'Adds two numbers. Use it to test numeric arguments.',
      inputSchema: z.strictObject({
        a: z.number().describe('First number.'),
        b: z.number().describe('Second number.'),
      }),
      annotations: READ_ONLY,
      _meta: settings.views.sum,
    },
    ({ a, b }) => describeSum(a, b),
  );
  register(
    {
      name: 'get-env',
      description:
        'Returns the allow-listed environment variables that are set, as JSON. Only variables the operator allowed are ever shown.',
      inputSchema: NO_ARGS,
      annotations: READ_ONLY,
      // It reveals the environment: behind the auth gate, only for tokens granted this scope.
      scopes: ['everything:env'],
    },
    () => JSON.stringify(allowedEnv(settings.env, settings.envAllowList), null, 2),
  );
  register(
    {
      name: 'get-structured-content',
      description:
        'Returns the (simulated) weather for a city as structured data. Use it to test outputSchema and structuredContent.',
      inputSchema: z.strictObject({
        location: z.enum(WEATHER_LOCATIONS).describe('The city.'),
      }),
      outputSchema: z.strictObject({
        temperature: z.number().describe('Degrees Celsius.'),
        conditions: z.string().describe('A short description of the sky.'),
        humidity: z.number().min(0).max(100).describe('Relative humidity, percent.'),
      }),
      annotations: READ_ONLY,
      _meta: settings.views.weather,
    },
    ({ location }) => ({ ...weatherAt(location) }),
  );
}

/** The tools that return images and annotated content. */
function registerMediaTools(register: Register): void {
  register(
    {
      name: 'get-tiny-image',
      description: 'Returns a 1x1 PNG between two texts. Use it to test image content.',
      inputSchema: NO_ARGS,
      annotations: READ_ONLY,
    },
    () => ({
      content: [
        { type: 'text', text: 'Here is a tiny image:' },
        { type: 'image', data: TINY_PNG_BASE64, mimeType: 'image/png' },
        { type: 'text', text: 'That was a 1x1 PNG.' },
      ],
    }),
  );
  register(
    {
      name: 'get-annotated-message',
      description:
        'Returns a message annotated with priority and audience. Use it to test content annotations.',
      inputSchema: {
        type: 'object',
        properties: {
          messageType: {
            type: 'string',
            enum: [...MESSAGE_TYPES],
            description: 'Which message to return.',
          },
          includeImage: {
            type: 'boolean',
            default: false,
            description: 'Also return an annotated image.',
          },
        },
        required: ['messageType'],
        additionalProperties: false,
      },
      annotations: READ_ONLY,
    },
    (args) => {
      const message = annotatedMessage(args['messageType'] as MessageType);
      const content: Spec20260728.ContentBlock[] = [
        { type: 'text', text: message.text, annotations: message.annotations },
      ];
      if (args['includeImage'] === true) {
        content.push({
          type: 'image',
          data: TINY_PNG_BASE64,
          mimeType: 'image/png',
          annotations: { priority: 0.5, audience: ['user'] },
        });
      }
      return { content };
    },
  );
}

/** Revisions without the `resource_link` content block (it arrived in 2025-06-18). */
const NO_RESOURCE_LINKS = new Set(['2024-11-05', '2025-03-26']);

/** get-resource-links: links to this server's resources (text before 2025-06-18). */
function registerResourceLinks(register: Register): void {
  register(
    {
      name: 'get-resource-links',
      description:
        "Returns links to this server's resources. Use it to test resource_link content.",
      inputSchema: {
        type: 'object',
        properties: {
          count: {
            type: 'integer',
            minimum: 1,
            maximum: 10,
            default: 3,
            description: 'How many links.',
          },
        },
        additionalProperties: false,
      },
      annotations: READ_ONLY,
    },
    (args, ctx) => {
      const count = typeof args['count'] === 'number' ? args['count'] : 3;
      const picked = listedResources().slice(0, count);
      if (NO_RESOURCE_LINKS.has(ctx.revision)) {
        // This revision has no resource_link block: name the URIs in text instead.
        const lines = picked.map((r) => `- ${r.uri} (${r.mimeType ?? 'unknown type'})`);
        return `${String(picked.length)} resources (read them with resources/read):\n${lines.join('\n')}`;
      }
      const content: Spec20260728.ContentBlock[] = [
        { type: 'text', text: `${String(picked.length)} resources of this server:` },
      ];
      for (const r of picked) {
        content.push({
          type: 'resource_link',
          uri: r.uri,
          name: r.name,
          ...(r.mimeType === undefined ? {} : { mimeType: r.mimeType }),
          ...(r.title === undefined ? {} : { description: r.title }),
        });
      }
      return { content };
    },
  );
}

/** get-resource-reference: a dynamic resource embedded in the result. */
function registerResourceReference(register: Register, state: EverythingState): void {
  register(
    {
      name: 'get-resource-reference',
      description:
        'Returns one dynamic resource embedded in the result. Use it to test embedded resources.',
      inputSchema: {
        type: 'object',
        properties: {
          resourceType: {
            type: 'string',
            enum: ['text', 'blob'],
            default: 'text',
            description: 'Text or binary.',
          },
          resourceId: {
            type: 'integer',
            minimum: 1,
            maximum: MAX_DYNAMIC_ID,
            description: 'Which resource.',
          },
        },
        required: ['resourceId'],
        additionalProperties: false,
      },
      annotations: READ_ONLY,
    },
    (args) => {
      const kind = args['resourceType'] === 'blob' ? 'blob' : 'text';
      const uri = dynamicUri(kind, args['resourceId'] as number);
      const contents = readDemoResource(uri, state);
      if (contents === undefined) throw new Error(`no resource at ${uri}`);
      return {
        content: [
          { type: 'text', text: `Here is ${uri}:` },
          { type: 'resource', resource: toResourceContents(contents) },
          { type: 'text', text: 'Read it again any time with resources/read and this URI.' },
        ],
      };
    },
  );
}

/** gzip-file-as-resource: a resource or a text, gzipped, as an embedded resource (and a resource). */
function registerGzip(register: Register, state: EverythingState): void {
  register(
    {
      name: 'gzip-file-as-resource',
      description:
        "Gzips one of this server's resources (uri) or a short text (data) and returns the result as an embedded resource. Give exactly one of uri or data.",
      inputSchema: {
        type: 'object',
        properties: {
          name: {
            type: 'string',
            pattern: '^[A-Za-z0-9._-]{1,64}$',
            description: 'Name of the output, e.g. notes.txt.gz.',
          },
          uri: {
            type: 'string',
            format: 'uri',
            pattern: '^demo://',
            description: 'A demo:// resource of this server to compress.',
          },
          data: {
            type: 'string',
            maxLength: MAX_INLINE_BYTES,
            description: 'Text to compress instead of a resource.',
          },
        },
        required: ['name'],
        additionalProperties: false,
      },
      annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: false },
    },
    async (args, ctx) => {
      const name = args['name'] as string;
      const bytes = sourceBytes(args, state);
      const compressed = await gzipBytes(bytes);
      ctx.signal.throwIfAborted();
      state.gzipped.delete(name);
      state.gzipped.set(name, compressed);
      for (const old of state.gzipped.keys()) {
        if (state.gzipped.size <= MAX_GZIPPED) break;
        state.gzipped.delete(old);
      }
      const uri = `demo://resource/gzip/${name}`;
      return {
        content: [
          {
            type: 'text',
            text: `Compressed ${String(bytes.length)} bytes to ${String(compressed.length)} bytes.`,
          },
          {
            type: 'resource',
            resource: { uri, mimeType: 'application/gzip', blob: toBase64(compressed) },
          },
        ],
      };
    },
  );
}

function sourceBytes(args: Record<string, unknown>, state: EverythingState): Uint8Array {
  const { uri, data } = args;
  if ((uri === undefined) === (data === undefined)) {
    throw new Error('give exactly one of "uri" (a demo:// resource) or "data" (text)');
  }
  if (typeof data === 'string') return new TextEncoder().encode(data);
  const contents = readDemoResource(String(uri), state);
  if (contents === undefined) {
    throw new Error(`no resource at ${String(uri)}; list them with resources/list`);
  }
  return contents.bytes ?? new TextEncoder().encode(contents.text ?? '');
}

function registerToggles(
  register: Register,
  where: { server: McpServer; state: EverythingState; settings: ToolSettings },
): void {
  const { server, state, settings } = where;
  register(
    {
      name: 'toggle-simulated-logging',
      description:
        'Turns simulated logging on or off. While on, every tool call also sends a log message at a random level.',
      inputSchema: NO_ARGS,
      annotations: { idempotentHint: false, openWorldHint: false },
    },
    async (_args, ctx) => {
      state.simulatedLogging = !state.simulatedLogging;
      if (!state.simulatedLogging) return 'Simulated logging is off.';
      await ctx.log('info', 'simulated logging is on', 'everything');
      return 'Simulated logging is on: every tool call now also sends a log message at a random level.';
    },
  );
  register(
    {
      name: 'toggle-subscriber-updates',
      description:
        'Turns simulated resource updates on or off. While on, the listed dynamic resources change periodically and subscribers are notified.',
      inputSchema: NO_ARGS,
      annotations: { idempotentHint: false, openWorldHint: false },
    },
    () => {
      if (state.updates !== undefined) {
        clearInterval(state.updates);
        state.updates = undefined;
        return 'Simulated resource updates are off.';
      }
      state.updates = setInterval(() => {
        state.revision++;
        for (const uri of updatedUris()) server.resourceUpdated(uri);
      }, settings.updateIntervalMs);
      state.updates.unref();
      const seconds = settings.updateIntervalMs / 1000;
      return `Simulated resource updates are on: every ${String(seconds)} s the listed dynamic resources change (subscribe to hear about it).`;
    },
  );
}
