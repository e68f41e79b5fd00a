// The extension of docs/extensions.md, as one module: `com.example/notes`, a small protocol
// extension with both sides. The server side serves `notes/list` (cacheable, paged) and
// `notes/get` (named by `params.id`, which the `Mcp-Name` header mirrors), declares the extension
// once a note exists, publishes each note as a resource too, and tags every tool result with the
// number of notes (a tool-call middleware). The client side gives `list()` and `get(id)` over a
// connection whose server declares it. test/integration/server-extension.test.ts runs it in both
// eras over Streamable HTTP.
import type { ClientExtension } from '../src/client/index.js';
import { ErrorCode, JsonRpcError } from '../src/jsonrpc/index.js';
import type { ExtensionHost, MethodDeclaration, ServerExtension } from '../src/server/index.js';

/** The extension's identifier (the key of `capabilities.extensions`). */
export const NOTES = 'com.example/notes';

/** One note. */
export interface Note {
  readonly id: string;
  readonly text: string;
}

/** The methods, as both sides declare them. */
const METHODS = {
  'notes/list': {
    kind: 'request',
    direction: 'client-to-server',
    revisions: ['2025-11-25', '2026-07-28'],
    cacheable: true,
  },
  'notes/get': {
    kind: 'request',
    direction: 'client-to-server',
    revisions: ['2025-11-25', '2026-07-28'],
    nameParam: 'id',
  },
} as const satisfies Record<string, MethodDeclaration>;

/** The server side: `notes()` is added with `server.extend(...)`, then notes with `add`. */
export function notes(): ServerExtension & { add(note: Note): void } {
  const byId = new Map<string, Note>();
  let host: ExtensionHost | undefined;
  const publish = (note: Note): void => {
    host?.resource({ uri: `note://${note.id}`, name: note.id }, () => note.text);
  };
  return {
    id: NOTES,
    methods: {
      'notes/list': {
        ...METHODS['notes/list'],
        serve: (call) => {
          const page = call.page([...byId.values()]);
          return { notes: page.items, ...(page.nextCursor && { nextCursor: page.nextCursor }) };
        },
      },
      'notes/get': {
        ...METHODS['notes/get'],
        serve: (call) => {
          const note = byId.get(String(call.params['id']));
          if (note === undefined) {
            throw new JsonRpcError(ErrorCode.InvalidParams, `no note ${String(call.params['id'])}`);
          }
          return { note };
        },
      },
    },
    // Declared in 2026-07-28 (older revisions have no `extensions`) once a note exists.
    capabilities: (revision) =>
      revision === '2026-07-28' && byId.size > 0 ? { settings: { count: true } } : undefined,
    toolCall: async (call, next) => {
      const result = await next();
      return { ...result, _meta: { ...result._meta, [`${NOTES}/count`]: byId.size } };
    },
    setup(given) {
      host = given;
      for (const note of byId.values()) publish(note);
    },
    add(note) {
      if (byId.has(note.id)) throw new TypeError(`note ${note.id} exists already`);
      byId.set(note.id, note);
      publish(note);
      host?.capabilitiesChanged();
    },
  };
}

/** What `client.extend(notesClient())` gives. */
export interface NotesApi {
  list(): Promise<Note[]>;
  get(id: string): Promise<Note>;
}

/** The client side: declares the extension to 2026-07-28 servers and gives its calls. */
export function notesClient(): ClientExtension<NotesApi> {
  return {
    id: NOTES,
    methods: METHODS,
    settings: {},
    bind: (host) => ({
      async list() {
        const result = await host.request('notes/list', {});
        return result['notes'] as Note[];
      },
      async get(id) {
        const result = await host.request('notes/get', { id });
        return result['note'] as Note;
      },
    }),
  };
}
