// Command-line parsing shared by every command: node:util parseArgs with the shared flags, the
// stdio command split off after `--`, and the small value syntaxes (K: V headers, k=v pairs).
import type { ParseArgsConfig } from 'node:util';
import { parseArgs } from 'node:util';
import type { ProtocolRevision } from '../protocol/index.js';
import { PROTOCOL_REVISIONS, isProtocolRevision } from '../protocol/index.js';
import { UsageError } from './errors.js';
import type { HostSettings } from './host.js';
import { parseCapabilities, parseRoots } from './host.js';
import { messageOf } from '../internal/message-of.js';

/** Option definitions, as parseArgs takes them. */
export type OptionSpec = NonNullable<ParseArgsConfig['options']>;

/** The flags every command that talks to a server accepts. */
export const SHARED_OPTIONS: OptionSpec = {
  json: { type: 'boolean' },
  header: { type: 'string', multiple: true, short: 'H' },
  protocol: { type: 'string' },
  timeout: { type: 'string' },
  'max-time': { type: 'string' },
  quiet: { type: 'boolean', short: 'q' },
  trace: { type: 'boolean' },
  debug: { type: 'boolean' },
  capabilities: { type: 'string' },
  root: { type: 'string', multiple: true },
  'sample-reply': { type: 'string' },
  'no-browser': { type: 'boolean' },
  'client-id': { type: 'string' },
  'client-secret': { type: 'string' },
  grant: { type: 'string' },
  scope: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
};

/** The help text of the shared flags, for each command's --help. */
export const SHARED_HELP: string = `Shared flags:
  --json                 machine-readable output (JSON on stdout)
  -H, --header 'K: V'    add an HTTP header (repeatable; URL targets only)
  --protocol <revision>  speak exactly this revision (default: negotiate, 2026-07-28 first,
                         then initialize): ${PROTOCOL_REVISIONS.join(', ')}
  --timeout <ms>         timeout of each request (default 60000; progress restarts it)
  --max-time <s>         limit on a whole call, which progress does not restart (default 600)
  -q, --quiet            no progress, logs or server stderr
  --trace                print every JSON-RPC message to stderr
  --debug                print stack traces and unsolicited errors
  --capabilities <list>  what to declare as a host (default roots,sampling,elicitation; none)
  --root <path|file:>    a root to offer the server (repeatable; default the working directory)
  --sample-reply <text>  answer every sampling request with this text (default: ask at the
                         terminal, else refuse)

Authorization (URL targets whose server answers 401; tokens kept per server URL):
  --no-browser           print the sign-in URL instead of opening the browser
  --client-id <id>       a client registered with the authorization server (else the CLI
                         registers itself where the server allows)
  --client-secret <s>    its secret (or MCPKIT_CLIENT_SECRET)
  --grant <grant>        authorization_code (default: sign in in a browser) or
                         client_credentials (no user: --client-id and a secret)
  --scope <scopes>       the scopes to ask for (default: what the server asks for)`;

/** What parseArgs found, plus the command given after `--`. */
export interface ParsedArgs {
  readonly values: Readonly<Record<string, string | boolean | (string | boolean)[] | undefined>>;
  readonly positionals: readonly string[];
  /** Everything after the first `--`: a stdio server's command and its arguments. */
  readonly command: readonly string[] | undefined;
}

/** Parses `args` against `options`. Throws UsageError for unknown or malformed flags. */
export function parse(args: readonly string[], options: OptionSpec): ParsedArgs {
  const dash = args.indexOf('--');
  const own = dash < 0 ? args : args.slice(0, dash);
  const command = dash < 0 ? undefined : args.slice(dash + 1);
  try {
    const { values, positionals } = parseArgs({
      args: [...own],
      options,
      allowPositionals: true,
      strict: true,
    });
    return { values, positionals, command };
  } catch (error) {
    const message = messageOf(error);
    throw new UsageError(cleanParseError(message));
  }
}

/** parseArgs messages are long and capitalized; keep the first sentence, lower-cased. */
function cleanParseError(message: string): string {
  const first = message.split(/\.\s/, 1)[0] ?? message;
  return first.charAt(0).toLowerCase() + first.slice(1).replace(/\.$/, '');
}

/** Whether a boolean flag was given. */
export function flag(parsed: ParsedArgs, name: string): boolean {
  return parsed.values[name] === true;
}

/** The value of a string flag, if given. */
export function text(parsed: ParsedArgs, name: string): string | undefined {
  const value = parsed.values[name];
  return typeof value === 'string' ? value : undefined;
}

/** Every value of a repeatable string flag. */
export function texts(parsed: ParsedArgs, name: string): string[] {
  const value = parsed.values[name];
  if (Array.isArray(value)) return value.filter((v): v is string => typeof v === 'string');
  return typeof value === 'string' ? [value] : [];
}

/** The default of --max-time, in seconds. */
export const DEFAULT_MAX_TIME_S: number = 600;

/** The shared flags, validated. */
export interface CommonOptions {
  readonly json: boolean;
  readonly headers: Readonly<Record<string, string>>;
  readonly protocol: ProtocolRevision | undefined;
  readonly timeoutMs: number | undefined;
  /** The limit on a whole call (--max-time), in milliseconds. */
  readonly maxTimeMs: number;
  readonly quiet: boolean;
  readonly trace: boolean;
  readonly debug: boolean;
  /** What the CLI declares and answers as a host (--capabilities, --root, --sample-reply). */
  readonly host: HostSettings;
  /** How URL targets are authorized (--no-browser, --client-id, --client-secret, …). */
  readonly auth: AuthSettings;
}

/** The CLI's authorization settings. */
export interface AuthSettings {
  readonly browser: boolean;
  readonly clientId: string | undefined;
  readonly clientSecret: string | undefined;
  readonly grant: 'authorization_code' | 'client_credentials';
  readonly scope: string | undefined;
}

function authSettings(parsed: ParsedArgs): AuthSettings {
  const grant = text(parsed, 'grant') ?? 'authorization_code';
  if (grant !== 'authorization_code' && grant !== 'client_credentials') {
    throw new UsageError(
      `unknown grant "${grant}"`,
      'use authorization_code or client_credentials',
    );
  }
  return {
    browser: !flag(parsed, 'no-browser'),
    clientId: text(parsed, 'client-id'),
    clientSecret: text(parsed, 'client-secret'),
    grant,
    scope: text(parsed, 'scope'),
  };
}

/** Reads and validates the shared flags. Throws UsageError. */
export function commonOptions(parsed: ParsedArgs): CommonOptions {
  const protocol = text(parsed, 'protocol');
  if (protocol !== undefined && !isProtocolRevision(protocol)) {
    throw new UsageError(
      `unknown protocol revision "${protocol}"`,
      `use one of ${PROTOCOL_REVISIONS.join(', ')}`,
    );
  }
  const timeout = text(parsed, 'timeout');
  return {
    json: flag(parsed, 'json'),
    headers: parseHeaders(texts(parsed, 'header')),
    protocol,
    timeoutMs: timeout === undefined ? undefined : positiveInteger(timeout, '--timeout'),
    maxTimeMs:
      positiveInteger(text(parsed, 'max-time') ?? String(DEFAULT_MAX_TIME_S), '--max-time') * 1000,
    quiet: flag(parsed, 'quiet'),
    trace: flag(parsed, 'trace'),
    debug: flag(parsed, 'debug'),
    host: {
      capabilities: parseCapabilities(text(parsed, 'capabilities')),
      roots: parseRoots(texts(parsed, 'root')),
      sampleReply: text(parsed, 'sample-reply'),
    },
    auth: authSettings(parsed),
  };
}

/** Parses `K: V` headers. Throws UsageError for one without a colon or a name. */
export function parseHeaders(values: readonly string[]): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const value of values) {
    const colon = value.indexOf(':');
    const name = colon < 0 ? '' : value.slice(0, colon).trim();
    if (name === '' || !/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name)) {
      throw new UsageError(`invalid header "${value}"`, "write headers as --header 'Name: value'");
    }
    headers[name] = value.slice(colon + 1).trim();
  }
  return headers;
}

/** Parses a positive integer flag value. Throws UsageError. */
export function positiveInteger(value: string, name: string): number {
  const number = Number(value);
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(number) || number <= 0) {
    throw new UsageError(`${name} must be a positive integer, got "${value}"`);
  }
  return number;
}

/** Splits `key=value`. Throws UsageError when there is no `=` or no key. */
export function keyValue(pair: string, name: string): [string, string] {
  const eq = pair.indexOf('=');
  if (eq <= 0) throw new UsageError(`${name} expects key=value, got "${pair}"`);
  return [pair.slice(0, eq), pair.slice(eq + 1)];
}

/** A value given on the command line: JSON when it parses as JSON, else the string itself. */
export function looseValue(value: string): unknown {
  try {
    return JSON.parse(value) as unknown;
  } catch {
    return value;
  }
}

/** Parses a JSON object argument. Throws UsageError. */
export function jsonObject(value: string, what: string): Record<string, unknown> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch (error) {
    const reason = messageOf(error);
    throw new UsageError(
      `invalid JSON in ${what}: ${reason}`,
      `quote it for the shell: '{"key":"value"}', or use --arg key=value`,
    );
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new UsageError(`${what} must be a JSON object`, `write it as '{"key":"value"}'`);
  }
  return parsed as Record<string, unknown>;
}
