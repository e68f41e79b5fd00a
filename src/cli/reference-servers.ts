// The servers `mcpkit serve` can run: the reference servers by name (loaded on demand, so that
// other commands never load a database), the demo that puts all three on one endpoint, or a
// module of the user's that exports an McpServer.
import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { Connectable } from '../protocol/index.js';
import type { McpServerOptions } from '../server/index.js';
import { McpServer } from '../server/index.js';
import type { TasksOptions } from '../ext/tasks/index.js';
import { CliError, UsageError } from './errors.js';
import { importModule } from './load-module.js';
import { version } from './version.js';
import { messageOf } from '../internal/message-of.js';

/** A server ready to be connected to transports, and how to stop it. */
export interface Served {
  /** What to report as served. */
  readonly name: string;
  readonly server: Connectable;
  /** Closes every session and what the server holds (timers, databases). Idempotent. */
  close(): Promise<void>;
  /** A module's factory was given the shared options ({@link ModuleOptions}). */
  readonly tookOptions?: boolean;
}

/**
 * What `mcpkit serve` gives a module's factory, as it gives the reference servers: the
 * McpServer options (`stateSecret` from --state-secret, the change bus with --redis) and the
 * tasks extension's options (the Redis task store with --redis). Each is `{}` when not set.
 */
export interface ModuleOptions {
  readonly server: McpServerOptions;
  readonly tasks: TasksOptions;
}

/** The names `mcpkit serve` knows. */
export const SERVER_NAMES = ['pingme', 'everything', 'sql', 'utilix', 'demo'] as const;

/** Loads a reference server by name, or a module by path. */
export async function loadServer(
  nameOrPath: string,
  context: {
    env: Readonly<Record<string, string | undefined>>;
    cwd: string;
    /** sql: serve on a privileged PostgreSQL login (--allow-privileged-login). */
    allowPrivilegedLogin?: boolean;
    /** Where a server's warnings go (stderr). */
    warn?: (message: string) => void;
    /** Options of the reference servers' McpServer (--state-secret, the change bus). */
    server?: McpServerOptions;
    /** Options of the tasks extension of a reference server with task tools (the Redis store). */
    tasks?: TasksOptions;
    /** The --http bind address, if any: utilix denies private ranges beyond loopback. */
    httpHost?: string | undefined;
  },
): Promise<Served> {
  return loadServerOrModule(nameOrPath, context).catch((error: unknown) => {
    const missing = missingPackage(error);
    if (missing === undefined) throw error;
    throw new CliError(`${nameOrPath} needs the package "${missing}", which is not installed`, {
      hint: `install it beside mcpkit: npm install ${missing} (mcpkit's optional peers are listed in its package.json)`,
      cause: error,
    });
  });
}

/**
 * The package named by a failed import (ERR_MODULE_NOT_FOUND for a bare specifier), also as
 * the cause of a server's own error (sql's "a mysql:// databaseUrl needs the mysql2 package").
 */
function missingPackage(error: unknown): string | undefined {
  for (let e = error, depth = 0; e instanceof Error && depth < 4; e = e.cause, depth++) {
    if ((e as { code?: unknown }).code !== 'ERR_MODULE_NOT_FOUND') continue;
    return /Cannot find package '([^']+)'/.exec(e.message)?.[1];
  }
  return undefined;
}

async function loadServerOrModule(
  nameOrPath: string,
  context: Parameters<typeof loadServer>[1],
): Promise<Served> {
  switch (nameOrPath) {
    case 'pingme': {
      const { createPingmeServer } = await import('../../servers/pingme/server.js');
      const server = createPingmeServer(
        context.server === undefined ? {} : { server: context.server },
      );
      return { name: 'pingme', server, close: () => server.close() };
    }
    case 'everything': {
      const { createEverythingServer } = await import('../../servers/everything/server.js');
      const everything = createEverythingServer({
        ...(context.server !== undefined && { server: context.server }),
        ...(context.tasks !== undefined && { tasks: context.tasks }),
      });
      await everything.ready;
      return { name: 'everything', server: everything.server, close: () => everything.close() };
    }
    case 'sql': {
      const { createSqlServer } = await import('../../servers/sql/server.js');
      const { PrivilegedLoginError, PRIVILEGED_LOGIN_HINT } =
        await import('../../servers/sql/privileges.js');
      const sql = await createSqlServer({
        databaseUrl: databaseUrl(context.env),
        allowPrivilegedLogin: context.allowPrivilegedLogin,
        onWarning: context.warn,
        server: context.server,
      }).catch((error: unknown) => {
        if (!(error instanceof PrivilegedLoginError)) throw error;
        throw new CliError(error.message, { hint: PRIVILEGED_LOGIN_HINT, cause: error });
      });
      return { name: 'sql', server: sql.server, close: () => sql.close() };
    }
    case 'utilix': {
      const { createUtilixServer } = await import('../../servers/utilix/server.js');
      const server = createUtilixServer({
        targets: await utilixTargets(context),
        ...(context.server === undefined ? {} : { server: context.server }),
      });
      return { name: 'utilix', server, close: () => server.close() };
    }
    case 'demo':
      return loadDemo(context);
    default:
      return loadModule(nameOrPath, context.cwd, {
        server: context.server ?? {},
        tasks: context.tasks ?? {},
      });
  }
}

function databaseUrl(env: Readonly<Record<string, string | undefined>>): string | undefined {
  const url = env['DATABASE_URL'];
  return url === undefined || url === '' ? undefined : url;
}

/**
 * Where utilix may connect: UTILIX_ALLOW and UTILIX_DENY (addresses, CIDR ranges, `private`);
 * without UTILIX_DENY, HTTP bound beyond loopback denies the private ranges (a remote caller
 * must not reach the server's own network through check_ssl_certificate).
 */
async function utilixTargets(
  context: Parameters<typeof loadServer>[1],
): Promise<{ allow?: string[]; deny?: string[] }> {
  const { parseTargetList } = await import('../../servers/utilix/server.js');
  const allow = parseTargetList(context.env['UTILIX_ALLOW']);
  const exposed =
    context.httpHost !== undefined &&
    !/^(127\.\d+\.\d+\.\d+|::1|localhost)$/i.test(context.httpHost);
  const deny = parseTargetList(context.env['UTILIX_DENY']) ?? (exposed ? ['private'] : undefined);
  try {
    const { compileTargetPolicy } = await import('../../servers/utilix/targets.js');
    compileTargetPolicy({ allow, deny });
  } catch (error) {
    throw new UsageError(
      `UTILIX_ALLOW/UTILIX_DENY: ${(error as Error).message}`,
      'list addresses or CIDR ranges separated by commas, e.g. UTILIX_DENY=private,203.0.113.0/24',
    );
  }
  return { ...(allow === undefined ? {} : { allow }), ...(deny === undefined ? {} : { deny }) };
}

/** The demo: the tools, resources and prompts of pingme, everything, sql and utilix on one server. */
async function loadDemo(context: Parameters<typeof loadServer>[1]): Promise<Served> {
  const { env, server: serverOptions } = context;
  const [pingme, everything, sql, utilix] = await Promise.all([
    import('../../servers/pingme/server.js'),
    import('../../servers/everything/server.js'),
    import('../../servers/sql/server.js'),
    import('../../servers/utilix/server.js'),
  ]);
  // Without PGlite (an optional peer) the demo serves the rest and says what the sql tools need,
  // in the words `serve sql` uses, rather than list tools that could only fail.
  const missing = sql.missingDatabasePackage({ databaseUrl: databaseUrl(env) });
  if (missing !== undefined) {
    context.warn?.(
      `demo: serving without the sql tools: they need the package "${missing}", which is not installed; install it beside mcpkit: npm install ${missing}`,
    );
  }
  const server = new McpServer(
    { name: 'demo', title: 'mcpkit demo (pingme + everything + sql + utilix)', version: version() },
    {
      instructions:
        'Four reference servers in one. PingME checks the connection. The everything tools each ' +
        'demonstrate one MCP feature; its resources live under demo://. ' +
        (missing === undefined
          ? 'list_tables, describe_table and query read a small shop database (read-only SQL). '
          : '') +
        'check_ssl_certificate, format_json and validate_email are utilities.',
      ...serverOptions,
    },
  );
  // The database opens on first use: the endpoint answers at once.
  const tour = everything.registerEverything(server);
  const registered = [
    pingme.registerPingme(server),
    tour,
    ...(missing === undefined ? [sql.registerSql(server, { databaseUrl: databaseUrl(env) })] : []),
    utilix.registerUtilix(server, { targets: await utilixTargets(context) }),
  ];
  await tour.ready;
  return {
    name: 'demo',
    server,
    close: async () => {
      await server.close();
      for (const part of registered) await part.close();
    },
  };
}

/**
 * Loads a module that exports an McpServer as `default` or `server`: the server itself, a
 * factory returning one (possibly async; called with `options`), or a `{ server, close }` object.
 */
async function loadModule(path: string, cwd: string, options: ModuleOptions): Promise<Served> {
  const file = resolve(cwd, path);
  const found = await stat(file).then(
    (info) => info.isFile(),
    () => false,
  );
  if (!found) {
    throw new UsageError(
      `unknown server "${path}"`,
      `serve one of ${SERVER_NAMES.join(', ')}, or the path of a module that exports an McpServer`,
    );
  }
  const module = await importModule(file).catch((error: unknown) => {
    // A module that does not compile or throws at start is the user's to fix, not "unexpected".
    if (error instanceof CliError || missingPackage(error) !== undefined) throw error;
    const reason = messageOf(error);
    throw new CliError(`${path} failed to load: ${reason}`, {
      hint: 'fix the module (--debug shows where it failed)',
      cause: error,
    });
  });
  let exported = module['default'] ?? module['server'];
  const factory = typeof exported === 'function';
  if (factory) exported = await (exported as (given: ModuleOptions) => unknown)(options);
  const served = asServed(exported, path);
  if (served === undefined) {
    throw new CliError(`${path} exports no McpServer`, {
      hint: 'export the server as default or as `server` (or a function that returns one)',
      exitCode: 3,
    });
  }
  return factory ? { ...served, tookOptions: true } : served;
}

function asServed(value: unknown, name: string): Served | undefined {
  if (isConnectable(value)) {
    return { name, server: value, close: () => closeOf(value) };
  }
  const holder = value as { server?: unknown; close?: unknown } | undefined;
  if (typeof holder === 'object' && isConnectable(holder.server)) {
    const server = holder.server;
    return {
      name,
      server,
      close: () =>
        typeof holder.close === 'function'
          ? Promise.resolve((holder.close as () => unknown).call(holder)).then(() => undefined)
          : closeOf(server),
    };
  }
  return undefined;
}

/** True for what serves clients over any transport (McpServer, or a Connectable of one's own). */
function isConnectable(value: unknown): value is Connectable {
  if (typeof value !== 'object' || value === null) return false;
  const { connect, serveRequest } = value as Partial<Record<keyof Connectable, unknown>>;
  return typeof connect === 'function' && typeof serveRequest === 'function';
}

async function closeOf(server: Connectable): Promise<void> {
  const close = (server as { close?: unknown }).close;
  if (typeof close === 'function') await (close as () => unknown).call(server);
}
