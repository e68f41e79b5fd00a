// `mcpkit gateway`'s hot reload: a new config taken by the gateway and by the CLI's own parts of
// it, the audit log (--audit wins over the file's `audit.to`) and, with --http, the endpoints'
// routes and the trusted headers (./gateway-http.ts). What cannot be made ready (an audit file
// that cannot be opened, a secret that is not set, an issuer that does not answer) refuses the
// reload as a whole, the old config serving on.
import type {
  AuditLog,
  AuditSink,
  Gateway,
  GatewayConfig,
  ReloadSummary,
} from '../gateway/index.js';
import { openAuditLog } from '../gateway/index.js';
import type { McpServer } from '../server/index.js';
import { text } from './args.js';
import type { CommandContext } from './command.js';
import { CliError, UsageError } from './errors.js';
import type { GatewayHttp } from './gateway-http.js';
import { messageOf } from '../internal/message-of.js';

/** A new audit log made ready by {@link GatewayAudit.prepare}. */
interface AuditChange {
  /** The sink from the swap on; null: none. */
  readonly sink: AuditSink | null;
  /** Takes the new log and closes the old one (its last lines written). */
  commit(): Promise<void>;
  /** The reload did not happen: closes the new log. */
  discard(): Promise<void>;
}

/** The audit log of `mcpkit gateway`: --audit, else the config's `audit.to`; none without. */
export class GatewayAudit {
  readonly #ctx: CommandContext;
  readonly #stdio: boolean;
  #to: string | undefined;
  #log: AuditLog | undefined;

  /** Opens the log `config` names (one that cannot be opened is reported, and writes nothing). */
  constructor(ctx: CommandContext, config: GatewayConfig, stdio: boolean) {
    this.#ctx = ctx;
    this.#stdio = stdio;
    this.#to = this.#destination(config);
    this.#log = this.#to === undefined ? undefined : this.#open(this.#to, false);
  }

  /** Where records go now; undefined: nowhere. */
  get sink(): AuditSink | undefined {
    return this.#log?.sink;
  }

  /**
   * Gets ready for `config`: undefined when the log stays where it is, else the new one (opened
   * now). Throws when `config` names one that cannot be opened.
   */
  prepare(config: GatewayConfig): AuditChange | undefined {
    const to = this.#destination(config);
    if (to === this.#to) return undefined;
    const log = to === undefined ? undefined : this.#open(to, true);
    return {
      sink: log?.sink ?? null,
      commit: async () => {
        const old = this.#log;
        this.#to = to;
        this.#log = log;
        await old?.close();
      },
      discard: async () => {
        await log?.close();
      },
    };
  }

  /** Closes the log in force, its last lines written. */
  async close(): Promise<void> {
    await this.#log?.close();
  }

  /** Where `config` (and --audit, which wins) sends the log: `stdout`, a file, or undefined. */
  #destination(config: GatewayConfig): string | undefined {
    const to = text(this.#ctx.parsed, 'audit') ?? config.audit?.to;
    if (to !== '-' && to !== 'stdout') return to;
    if (this.#stdio) {
      throw new UsageError(
        'the audit log cannot go to stdout when the gateway speaks stdio',
        'give --audit a file, or serve with --http',
      );
    }
    return 'stdout';
  }

  /** Opens the log at `to`; `strict`: a file that cannot be opened throws. */
  #open(to: string, strict: boolean): AuditLog {
    const { io } = this.#ctx;
    let opening = true;
    let failure: unknown;
    const log = openAuditLog(to, {
      stdout: io.stdout,
      onError: (error) => {
        if (opening && strict) failure = error;
        else
          io.stderr.write(
            `mcpkit gateway: cannot write the audit log ${to}: ${messageOf(error)}\n`,
          );
      },
    });
    opening = false;
    if (failure !== undefined) {
      void log.close();
      throw new CliError(`cannot open the audit log ${to}: ${messageOf(failure)}`);
    }
    return log;
  }
}

/** What {@link reloader} changes besides the gateway. */
export interface ReloadParts {
  readonly gateway: Gateway;
  readonly audit: GatewayAudit;
  /** The HTTP face, once made (undefined: stdio). */
  readonly http: () => GatewayHttp | undefined;
  /** Called with the server of each endpoint a reload adds, before it serves (telemetry). */
  readonly instrument: (server: McpServer) => void;
}

/**
 * The `apply` of the config watch: makes ready what the new config needs (audit log, HTTP
 * routes, trusted headers), then has the gateway take it and the rest swap with it. A refusal
 * (a rejection) leaves everything as it was.
 */
export function reloader(parts: ReloadParts): (config: GatewayConfig) => Promise<ReloadSummary> {
  const { gateway } = parts;
  return async (config) => {
    const audit = parts.audit.prepare(config);
    // Whether the gateway took the config (read after awaits: an object, not narrowed).
    const state = { taken: false };
    try {
      const http = await parts.http()?.prepare(config);
      return await gateway.reload(config, {
        ...(audit === undefined ? {} : { audit: audit.sink }),
        onSwap: (summary) => {
          state.taken = true;
          for (const name of summary.endpoints?.added ?? []) {
            const endpoint = gateway.endpoints.get(name);
            if (endpoint !== undefined) parts.instrument(endpoint.server);
          }
          return Promise.all([http?.commit(summary), audit?.commit()]).then(() => undefined);
        },
      });
    } catch (error) {
      if (!state.taken) await audit?.discard();
      throw error;
    }
  };
}
