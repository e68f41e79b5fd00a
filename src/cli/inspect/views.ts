// What the inspector's page sees: the State (server, lists, budget, lint, roots), the target as
// shown (secrets masked), lint findings, and the envelope of a request's answer or failure.
// Plain shapes: the session fills them, the API sends them, measure.ts and inputs.ts make parts.
import type { Prompt, Resource, ResourceTemplate, Root, Tool } from '../../client/index.js';
import { JsonRpcError, LocalError } from '../../client/index.js';
import type { ProtocolRevision } from '../../protocol/index.js';
import { messageOf } from '../../internal/message-of.js';

/** How the page sees the target (secret header values masked). */
export type TargetView =
  | { kind: 'url'; url: string; headers: Record<string, string> }
  | { kind: 'command'; command: string; args: string[] };

/** A lint finding as the page shows it. */
export interface LintView {
  rule: string;
  severity: 'error' | 'warning' | 'info';
  message: string;
}

/** What GET /api/state returns and `state` events carry. */
export interface State {
  /**
   * Orders the snapshots of one inspector: a snapshot taken later has a larger stamp. The page
   * reads them over several connections (the event stream, the answers of GET /api/state and
   * of POSTs), which may arrive out of order; it keeps the one with the largest stamp.
   */
  stamp: number;
  connected: boolean;
  connecting: boolean;
  /** Names the connection (see InspectorSession.connection), while connected. */
  connection?: number;
  target?: TargetView;
  allowStdio: boolean;
  mode: 'auto' | ProtocolRevision;
  revision?: string;
  era?: 'legacy' | 'modern';
  serverInfo?: object;
  capabilities?: object;
  instructions?: string;
  tools: Tool[];
  resources: Resource[];
  resourceTemplates: ResourceTemplate[];
  prompts: Prompt[];
  budget?: { total: number; tokenizer: string; tools: Record<string, number> };
  lint?: Record<string, LintView[]>;
  roots: Root[];
  logLevel?: string;
  error?: string;
}

/** The answer of POST /api/request. */
export type Envelope =
  | { ok: true; result: unknown; outputCheck?: { valid: boolean; errors?: string[] } }
  | {
      ok: false;
      error: {
        code?: number;
        message: string;
        data?: unknown;
        kind: 'protocol' | 'local';
        cancelled?: boolean;
      };
    };

/** The envelope of a request that failed: a protocol error, or a local one (its code as data). */
export function failure(error: unknown, cancelled: boolean): Envelope {
  if (error instanceof JsonRpcError) {
    return {
      ok: false,
      error: {
        code: error.code,
        message: error.message,
        ...(error.data === undefined ? {} : { data: error.data }),
        kind: 'protocol',
        ...(cancelled ? { cancelled } : {}),
      },
    };
  }
  const data = error instanceof LocalError ? { data: { code: error.code } } : {};
  return {
    ok: false,
    error: {
      message: messageOf(error),
      ...data,
      kind: 'local',
      ...(cancelled ? { cancelled } : {}),
    },
  };
}

/** An error's message (the text of anything else thrown), for the inspector's modules. */
export { messageOf } from '../../internal/message-of.js';
