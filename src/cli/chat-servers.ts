// The servers of `mcpkit chat`: gathered from --config, --server and the command after `--`,
// named uniquely, and marked trusted by --trust.
import { basename, extname } from 'node:path';
import type { ServerConfig } from '../catalogue/index.js';
import { text, texts } from './args.js';
import type { CommandContext } from './command.js';
import { UsageError } from './errors.js';
import { isUrl, readServersFile } from './target.js';

/** The servers of --config, --server and the command after `--`. */
export async function gatherServers(ctx: CommandContext): Promise<Record<string, ServerConfig>> {
  const servers: Record<string, ServerConfig> = {};
  const configPath = text(ctx.parsed, 'config');
  if (configPath !== undefined) Object.assign(servers, await readServersFile(configPath));
  const add = (name: string, config: ServerConfig) => {
    let unique = name;
    for (let n = 2; unique in servers; n++) unique = `${name}-${String(n)}`;
    servers[unique] = config;
  };
  for (const url of texts(ctx.parsed, 'server')) {
    if (!isUrl(url))
      throw new UsageError(
        `--server ${url}: not a URL`,
        'give --server http://host/mcp, or --server -- <command>',
      );
    add(sanitizeName(new URL(url).host), { url, headers: ctx.common.headers });
  }
  const command = ctx.parsed.command;
  if (command !== undefined) {
    const [program, ...args] = command;
    if (program === undefined || program === '')
      throw new UsageError('nothing after --', 'write the server command after --');
    add(commandName(command), { command: program, args });
  }
  return servers;
}

/** The servers, those named by --trust marked trusted. Throws UsageError for an unknown name. */
export function trustServers(
  servers: Record<string, ServerConfig>,
  names: readonly string[],
): Record<string, ServerConfig> {
  for (const name of names) {
    const config = Object.hasOwn(servers, name) ? servers[name] : undefined;
    if (config === undefined) {
      const known = Object.keys(servers);
      throw new UsageError(
        `--trust ${name}: there is no server "${name}"`,
        known.length === 0 ? 'give servers first' : `the servers are ${known.join(', ')}`,
      );
    }
    servers[name] = { ...config, trusted: true };
  }
  return servers;
}

/** A stdio server's name: its last plain argument (`mcpkit serve pingme` → pingme). */
function commandName(command: readonly string[]): string {
  const plain = command.filter((word) => !word.startsWith('-'));
  const last = plain[plain.length - 1] ?? 'server';
  return sanitizeName(basename(last, extname(last))) || 'server';
}

function sanitizeName(name: string): string {
  return name.replace(/[^a-zA-Z0-9_-]/g, '_');
}
