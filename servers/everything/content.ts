// everything's resources, resource templates and prompts, with completions for template variables
// and prompt arguments. Dynamic resources change with every simulated update (their revision
// counter lives in the shared state), so a subscriber that re-reads after an update sees new content.
import type { McpServer, ResourceDefinition } from '../../src/server/index.js';
import { invalidParams, resourceNotFound } from '../../src/protocol/index.js';
import type { Spec20260728 } from '../../src/protocol/index.js';
import type { DynamicKind } from './logic.js';
import {
  DOCUMENTS,
  LISTED_DYNAMIC,
  completeCity,
  completeDynamicId,
  completeState,
  documentUri,
  dynamicBlob,
  dynamicText,
  dynamicUri,
  parseDynamicId,
  toBase64,
} from './logic.js';

/** State shared by the tools and resources of one everything server. */
export interface EverythingState {
  /** Whether every tool call also sends a simulated log message. */
  simulatedLogging: boolean;
  /** The timer of simulated resource updates, while they are on. */
  updates: ReturnType<typeof setInterval> | undefined;
  /** Revision of the dynamic resources; each simulated update advances it. */
  revision: number;
  /** Outputs of gzip-file-as-resource, by name (the newest few). */
  readonly gzipped: Map<string, Uint8Array>;
}

/** Most gzip outputs kept for `demo://resource/gzip/{name}`. */
export const MAX_GZIPPED = 16;

/** The contents of one resource: text or bytes, with its MIME type. */
export interface DemoContents {
  uri: string;
  mimeType: string;
  text?: string;
  bytes?: Uint8Array;
}

const KINDS: Readonly<Record<DynamicKind, string>> = {
  text: 'text/plain',
  blob: 'application/octet-stream',
};

/** Reads one of this server's resources by URI; undefined when there is none. */
export function readDemoResource(uri: string, state: EverythingState): DemoContents | undefined {
  const doc = DOCUMENTS.find((d) => documentUri(d.name) === uri);
  if (doc !== undefined) {
    return doc.blob === undefined
      ? { uri, mimeType: doc.mimeType, text: doc.text ?? '' }
      : { uri, mimeType: doc.mimeType, bytes: Buffer.from(doc.blob, 'base64') };
  }
  const dynamic = /^demo:\/\/resource\/dynamic\/(text|blob)\/([^/]+)$/.exec(uri);
  if (dynamic !== null) {
    const kind = dynamic[1] as DynamicKind;
    const id = parseDynamicId(dynamic[2]);
    if (id === undefined) return undefined;
    return kind === 'text'
      ? { uri, mimeType: KINDS.text, text: dynamicText(id, state.revision) }
      : { uri, mimeType: KINDS.blob, bytes: dynamicBlob(id, state.revision) };
  }
  const gz = /^demo:\/\/resource\/gzip\/([^/]+)$/.exec(uri);
  const bytes = gz === null ? undefined : state.gzipped.get(gz[1] ?? '');
  return bytes === undefined ? undefined : { uri, mimeType: 'application/gzip', bytes };
}

/** Embedded-resource contents (spec `TextResourceContents` / `BlobResourceContents`). */
export function toResourceContents(
  contents: DemoContents,
): Spec20260728.TextResourceContents | Spec20260728.BlobResourceContents {
  const { uri, mimeType } = contents;
  return contents.bytes === undefined
    ? { uri, mimeType, text: contents.text ?? '' }
    : { uri, mimeType, blob: toBase64(contents.bytes) };
}

/** The resources `resources/list` shows: static documents, then the first dynamic ones. */
export function listedResources(): ResourceDefinition[] {
  const listed: ResourceDefinition[] = DOCUMENTS.map((d) => ({
    uri: documentUri(d.name),
    name: d.name,
    title: d.title,
    mimeType: d.mimeType,
  }));
  for (let id = 1; id <= LISTED_DYNAMIC; id++) {
    listed.push(dynamicDefinition('text', id), dynamicDefinition('blob', id));
  }
  return listed;
}

function dynamicDefinition(kind: DynamicKind, id: number): ResourceDefinition {
  return {
    uri: dynamicUri(kind, id),
    name: `dynamic-${kind}-${String(id)}`,
    title: `Dynamic ${kind} ${String(id)}`,
    mimeType: KINDS[kind],
  };
}

/** The URIs simulated updates touch: every listed dynamic resource. */
export function updatedUris(): string[] {
  const uris: string[] = [];
  for (let id = 1; id <= LISTED_DYNAMIC; id++) {
    uris.push(dynamicUri('text', id), dynamicUri('blob', id));
  }
  return uris;
}

/** Registers the resources, templates and prompts. */
export function registerContent(server: McpServer, state: EverythingState): void {
  registerResources(server, state);
  registerPrompts(server, state);
}

function registerResources(server: McpServer, state: EverythingState): void {
  for (const doc of DOCUMENTS) {
    server.resource(
      {
        uri: documentUri(doc.name),
        name: doc.name,
        title: doc.title,
        mimeType: doc.mimeType,
        annotations: { audience: ['user', 'assistant'], priority: 0.5 },
      },
      () => (doc.blob === undefined ? (doc.text ?? '') : Buffer.from(doc.blob, 'base64')),
    );
  }
  for (const kind of ['text', 'blob'] as const) {
    server.resourceTemplate(
      {
        uriTemplate: `demo://resource/dynamic/${kind}/{id}`,
        name: `dynamic-${kind}`,
        title: `Dynamic ${kind} resource`,
        description: `Generated ${kind === 'text' ? 'text' : 'bytes'} for id 1–100; changes with every simulated update.`,
        mimeType: KINDS[kind],
        complete: { id: (value) => completeDynamicId(value) },
        list: () =>
          Array.from({ length: LISTED_DYNAMIC }, (_, i) => dynamicDefinition(kind, i + 1)),
      },
      (uri, _variables, ctx) => {
        const contents = readDemoResource(uri, state);
        if (contents === undefined) throw resourceNotFound(uri, ctx.era);
        return contents.bytes ?? contents.text ?? '';
      },
    );
  }
  server.resourceTemplate(
    {
      uriTemplate: 'demo://resource/gzip/{name}',
      name: 'gzip-output',
      title: 'Gzip output',
      description: 'What gzip-file-as-resource produced, by name (the newest 16).',
      mimeType: 'application/gzip',
      complete: { name: (value) => [...state.gzipped.keys()].filter((n) => n.startsWith(value)) },
    },
    (uri, _variables, ctx) => {
      const contents = readDemoResource(uri, state);
      if (contents?.bytes === undefined) throw resourceNotFound(uri, ctx.era);
      return contents.bytes;
    },
  );
}

function registerPrompts(server: McpServer, state: EverythingState): void {
  server.prompt(
    { name: 'simple-prompt', title: 'Simple prompt', description: 'A prompt without arguments.' },
    () => 'This is a simple prompt without arguments.',
  );
  server.prompt(
    {
      name: 'args-prompt',
      title: 'Prompt with arguments',
      description: 'Asks about the weather in a city; completes city and state.',
      arguments: [
        {
          name: 'city',
          description: 'A city name, e.g. Chicago.',
          required: true,
          complete: (value) => completeCity(value),
        },
        {
          name: 'state',
          description: 'Two-letter US state code (optional).',
          complete: (value, context) => completeState(value, context.arguments['city']),
        },
      ],
    },
    (args) => {
      const where = args['state'] === undefined ? '' : `, ${args['state']}`;
      return `What's the weather in ${args['city'] ?? ''}${where}?`;
    },
  );
  server.prompt(
    {
      name: 'resource-prompt',
      title: 'Prompt with an embedded resource',
      description: 'Embeds a dynamic resource in the prompt.',
      arguments: [
        {
          name: 'resourceType',
          description: '"text" or "blob".',
          required: true,
          complete: (value) => ['text', 'blob'].filter((k) => k.startsWith(value)),
        },
        {
          name: 'resourceId',
          description: 'An id from 1 to 100.',
          required: true,
          complete: (value) => completeDynamicId(value),
        },
      ],
    },
    (args) => {
      const kind = args['resourceType'];
      const id = parseDynamicId(args['resourceId']);
      if ((kind !== 'text' && kind !== 'blob') || id === undefined) {
        throw invalidParams('resourceType must be "text" or "blob" and resourceId 1–100');
      }
      const contents = readDemoResource(dynamicUri(kind, id), state);
      if (contents === undefined) throw invalidParams(`no resource for id ${String(id)}`);
      return [
        {
          role: 'user',
          content: {
            type: 'text',
            text: `This prompt includes dynamic ${kind} resource ${String(id)}. Please describe it.`,
          },
        },
        { role: 'user', content: { type: 'resource', resource: toResourceContents(contents) } },
      ];
    },
  );
}
