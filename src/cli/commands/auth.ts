// mcpkit auth dev-server: a development authorization server on 127.0.0.1 (see
// ../auth-dev-server.ts), to try OAuth locally with mcpkit serve --auth-issuer and mcpkit login.
import { text } from '../args.js';
import { runCommand } from '../command.js';
import { CliError, UsageError } from '../errors.js';
import type { Io } from '../io.js';
import { listenError, untilStopped } from '../serving.js';

/** The port the development authorization server listens on unless told. */
const DEFAULT_PORT = 9000;

/** The --help text. */
export const help: string = `Usage: mcpkit auth dev-server [--port <port>] [--scopes <s1,s2>] [--user <name>]

Starts a development authorization server on 127.0.0.1 (port ${String(DEFAULT_PORT)} unless given), to
try OAuth locally: serve a server behind it with mcpkit serve --auth-issuer <its URL>, and sign
in with mcpkit login. Built on oidc-provider, an optional peer (npm install -D oidc-provider).

NOT FOR PRODUCTION: every sign-in is approved at once as one user, with no password and no
consent page; its signing key and the clients that registered live in memory and are gone when
it stops (tokens it issued then fail). It listens on loopback only.

What it serves is real OAuth: metadata (RFC 8414), dynamic client registration (RFC 7591), the
authorization code grant with PKCE, refresh tokens, resource indicators (RFC 8707) with JWT
access tokens (RFC 9068) for the resource asked for, and the client credentials grant for the
client it prints. A scope asked for that is not among --scopes is left out of the token (an
authorization server that narrows the scopes).

Flags:
  --port <port>        the port on 127.0.0.1 (default ${String(DEFAULT_PORT)}; 0 picks a free one)
  --scopes <s1,s2>     the scopes it grants (default mcp:read,mcp:write)
  --user <name>        the account every sign-in is approved as (default dev)
  -q, --quiet          print only the issuer URL

Examples:
  mcpkit auth dev-server
  mcpkit auth dev-server --port 0 --scopes mcp:read`;

const OPTIONS = {
  port: { type: 'string' },
  scopes: { type: 'string' },
  user: { type: 'string' },
} as const;

/** Runs `mcpkit auth`; resolves once stopped. */
export function run(args: readonly string[], io: Io): Promise<number> {
  return runCommand({ name: 'auth', options: OPTIONS, help }, { args, io }, async (ctx) => {
    const [action, ...extra] = ctx.parsed.positionals;
    if (action !== 'dev-server') {
      throw new UsageError(
        action === undefined ? 'say what to start: dev-server' : `unknown action "${action}"`,
        'mcpkit auth dev-server',
      );
    }
    if (extra[0] !== undefined) throw new UsageError(`unexpected argument "${extra[0]}"`);
    const portText = text(ctx.parsed, 'port') ?? String(DEFAULT_PORT);
    const port = Number(portText);
    if (!/^\d{1,5}$/.test(portText) || port > 65_535) {
      throw new UsageError(`invalid --port "${portText}"`, 'give a port number (0 picks one)');
    }
    const scopes = (text(ctx.parsed, 'scopes') ?? 'mcp:read,mcp:write')
      .split(/[,\s]+/)
      .filter((scope) => scope !== '');
    const user = text(ctx.parsed, 'user') ?? 'dev';
    const say = (line: string) => {
      if (!ctx.common.quiet) ctx.io.stderr.write(`mcpkit auth: ${line}\n`);
    };
    const { startDevAuthServer } = await import('../auth-dev-server.js');
    const server = await startDevAuthServer({
      port,
      scopes,
      user,
      onEvent: (line) => {
        say(line);
      },
    }).catch((error: unknown) => {
      if ((error as { code?: unknown }).code === 'ERR_MODULE_NOT_FOUND') {
        throw new CliError(
          'the development authorization server needs the package "oidc-provider", which is not installed',
          {
            hint: 'install it beside mcpkit: npm install -D oidc-provider',
            cause: error,
          },
        );
      }
      throw listenError(error, { host: '127.0.0.1', port });
    });
    ctx.io.stderr.write(
      ctx.common.quiet
        ? `${server.issuer}\n`
        : `mcpkit auth: development authorization server at ${server.issuer} (NOT FOR PRODUCTION: every sign-in is approved as "${user}")
mcpkit auth: scopes ${scopes.join(' ')}; client credentials: --client-id ${server.agent.clientId} --client-secret ${server.agent.clientSecret}
mcpkit auth: protect a server with it: mcpkit serve <server> --http --auth-issuer ${server.issuer}
`,
    );
    const reason = await untilStopped();
    say(`stopping (${reason})`);
    await server.close();
    return 0;
  });
}
