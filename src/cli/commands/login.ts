// mcpkit login / mcpkit logout: sign in to an MCP server ahead of use (discovery, registration,
// the browser step, tokens stored per server URL), and forget what was stored for it.
import { rm } from 'node:fs/promises';
import { SHARED_HELP } from '../args.js';
import { noMoreArguments, runCommand } from '../command.js';
import { UsageError } from '../errors.js';
import type { Io } from '../io.js';
import { cliOAuth, tokenFile } from '../oauth.js';
import { columns, writeJson } from '../output.js';
import { isUrl } from '../target.js';

/** The --help text of login. */
export const help: string = `Usage: mcpkit login <url> [flags]
       mcpkit logout <url>

login signs in to the MCP server at <url>: it discovers the server's authorization server,
registers (or uses --client-id), opens the browser to sign in (--no-browser prints the URL),
receives the redirect on 127.0.0.1 and stores the tokens for <url> in a file only you can read
(under $XDG_CONFIG_HOME/mcpkit, else ~/.config/mcpkit). Later commands on <url> use and
refresh them. Any command on a URL signs in by itself when the server asks; login does it
ahead of time. logout forgets the tokens and registration stored for <url>.

Examples:
  mcpkit login https://mcp.example.com/mcp
  mcpkit login --no-browser https://mcp.example.com/mcp
  mcpkit login --grant client_credentials --client-id my-agent https://mcp.example.com/mcp
  mcpkit logout https://mcp.example.com/mcp

${SHARED_HELP}`;

/** Runs `mcpkit login`. */
export function run(args: readonly string[], io: Io): Promise<number> {
  return runCommand({ name: 'login', options: {}, help }, { args, io }, async (ctx) => {
    const url = urlOf(ctx.parsed.positionals);
    const oauth = cliOAuth(url, ctx);
    const tokens = await oauth.authorize(
      ctx.common.auth.scope === undefined ? {} : { scope: ctx.common.auth.scope },
    );
    const summary = {
      server: url,
      issuer: tokens.issuer,
      tokenType: tokens.token_type,
      scope: tokens.scope ?? null,
      expiresAt: tokens.expires_at === undefined ? null : new Date(tokens.expires_at).toISOString(),
      refreshable: tokens.refresh_token !== undefined,
      stored: tokenFile(ctx.io.env, url),
    };
    if (ctx.common.json) writeJson(ctx.io.stdout, summary);
    else {
      ctx.io.stdout.write(`${ctx.style.green('signed in')} to ${url}\n`);
      ctx.io.stdout.write(
        `${columns([
          ['issuer', summary.issuer],
          ['token', `${summary.tokenType}${summary.refreshable ? ', refreshable' : ''}`],
          ['scope', summary.scope ?? '(none)'],
          ['expires', summary.expiresAt ?? '(not said)'],
          ['stored in', summary.stored],
        ])}\n`,
      );
    }
    return 0;
  });
}

/** Runs `mcpkit logout`. */
export function logout(args: readonly string[], io: Io): Promise<number> {
  return runCommand({ name: 'logout', options: {}, help }, { args, io }, async (ctx) => {
    const url = urlOf(ctx.parsed.positionals);
    const oauth = cliOAuth(url, ctx);
    const had = (await oauth.tokens()) !== undefined;
    await oauth.logout();
    await rm(tokenFile(ctx.io.env, url), { force: true });
    if (ctx.common.json) writeJson(ctx.io.stdout, { server: url, signedOut: had });
    else ctx.io.stdout.write(had ? `signed out of ${url}\n` : `no sign-in was stored for ${url}\n`);
    return 0;
  });
}

function urlOf(positionals: readonly string[]): string {
  const [url, ...rest] = positionals;
  if (url === undefined || !isUrl(url)) {
    throw new UsageError('give the server URL', 'mcpkit login https://mcp.example.com/mcp');
  }
  noMoreArguments(rest);
  return url;
}
