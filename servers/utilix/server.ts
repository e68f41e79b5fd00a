// utilix: remote-style utilities as tools: check a host's TLS certificate, format JSON, validate
// an email address. Each input schema is closed and bounded (a port that is not one is refused
// before a handler runs) yet lean: the three cost under 800 tokens by `mcpkit budget`, so the
// exact host name check is check_ssl_certificate's own, before any lookup, and tells a caller
// who passed a URL to give the host alone. Each tool answers structuredContent with a one-line
// text for the model, and check_ssl_certificate connects only where the operator's address
// policy allows.
import type {
  JsonSchemaObject,
  McpServerOptions,
  StructuredToolResult,
} from '../../src/server/index.js';
import { McpServer } from '../../src/server/index.js';
import type { CertificateReport, LookupAll } from './certificate.js';
import {
  CERTIFICATE_PROBLEMS,
  DEFAULT_TLS_TIMEOUT_MS,
  checkCertificate,
  summarizeCertificate,
} from './certificate.js';
import type { DomainCheck, MailResolver } from './email.js';
import {
  DomainCheckError,
  checkEmailSyntax,
  checkMailDomain,
  defaultMailResolver,
  domainProblem,
} from './email.js';
import { DEFAULT_MAX_JSON_BYTES, JsonSyntaxError, formatJson } from './json-format.js';
import type { TargetPolicy } from './targets.js';
import { compileTargetPolicy } from './targets.js';

export { PRIVATE_RANGES, parseTargetList } from './targets.js';
export type { TargetPolicy } from './targets.js';
export type { CertificateReport, LookupAll } from './certificate.js';
export type { MailResolver } from './email.js';

/** Options of {@link createUtilixServer}. Every field is optional. */
export interface UtilixServerOptions {
  /** The version reported in the server's identity. Default: `0.1.0`. */
  version?: string | undefined;
  /**
   * Where check_ssl_certificate may connect, by address (every address a name resolves to is
   * checked). Default: anywhere, fine on your own machine; a shared deployment should deny
   * at least `private` (see docs/servers.md#utilix).
   */
  targets?: TargetPolicy | undefined;
  /** PEM CA certificates trusted besides Node's store and NODE_EXTRA_CA_CERTS. */
  extraCaCertificates?: readonly string[] | undefined;
  /** Most milliseconds one certificate check takes, resolving included. Default: 10 000. */
  tlsTimeoutMs?: number | undefined;
  /** How check_ssl_certificate resolves names. Default: the system resolver. */
  lookup?: LookupAll | undefined;
  /** How validate_email looks up MX and A/AAAA records. Default: node:dns Resolver (3 s, 2 tries). */
  mailResolver?: MailResolver | undefined;
  /** Most milliseconds one domain check takes. Default: 10 000. */
  dnsTimeoutMs?: number | undefined;
  /** Largest JSON format_json takes, in bytes. Default: 1 MiB. */
  maxJsonBytes?: number | undefined;
  /** Options of the McpServer (a shared `stateSecret`, a `taskStore`). */
  server?: McpServerOptions | undefined;
}

/** Creates the utilix server (identity `utilix-mcp`): check_ssl_certificate, format_json, validate_email. */
export function createUtilixServer(options: UtilixServerOptions = {}): McpServer {
  const server = new McpServer(
    { name: 'utilix-mcp', title: 'utilix', version: options.version ?? '0.1.0' },
    {
      instructions: 'Utilities: TLS certificate checks, JSON formatting, email validation.',
      ...options.server,
    },
  );
  registerUtilix(server, options);
  return server;
}

const READ_ONLY = { readOnlyHint: true, idempotentHint: true } as const;

/** Adds the utilix tools to an existing server (the demo composes servers this way). */
export function registerUtilix(
  server: McpServer,
  options: UtilixServerOptions = {},
): { close(): Promise<void> } {
  registerCertificateTool(server, options);
  registerJsonTool(server, options);
  registerEmailTool(server, options);
  return { close: () => Promise.resolve() };
}

// Every field is always there (CertificateReport's type says so); `required` would list all 18
// names again, a fifth of the tool's tokens, so the schema leaves it out.
const CERTIFICATE_OUTPUT: JsonSchemaObject = {
  type: 'object',
  properties: {
    hostname: { type: 'string' },
    port: { type: 'integer' },
    servername: { type: ['string', 'null'] },
    address: { type: 'string' },
    subject: { type: 'string' },
    issuer: { type: 'string' },
    subjectAltNames: { type: 'array', items: { type: 'string' } },
    hostnameMatches: { type: 'boolean' },
    validFrom: { type: 'string', format: 'date-time' },
    validTo: { type: 'string', format: 'date-time' },
    daysLeft: { type: 'integer' },
    chainTrusted: { type: 'boolean' },
    verifyError: { type: ['string', 'null'] },
    problems: { type: 'array', items: { enum: [...CERTIFICATE_PROBLEMS] } },
    protocol: { type: ['string', 'null'] },
    cipher: { type: 'string' },
    serialNumber: { type: 'string' },
    fingerprint256: { type: 'string' },
  },
  additionalProperties: false,
};

function registerCertificateTool(server: McpServer, options: UtilixServerOptions): void {
  const targets = compileTargetPolicy(options.targets);
  const timeoutMs = options.tlsTimeoutMs ?? DEFAULT_TLS_TIMEOUT_MS;
  server.tool(
    {
      name: 'check_ssl_certificate',
      title: 'Check a TLS certificate',
      description:
        "Reports a host's TLS certificate (issuer, SANs, validity, trust, problems). Use it to check a site or explain a TLS error.",
      inputSchema: {
        type: 'object',
        properties: {
          hostname: {
            type: 'string',
            pattern: '^\\S+$',
            maxLength: 253,
            description: 'Host name or IP alone, e.g. example.com',
          },
          port: {
            type: 'integer',
            minimum: 1,
            maximum: 65535,
            default: 443,
            description: 'e.g. 8443',
          },
          servername: {
            type: 'string',
            pattern: '^\\S+$',
            maxLength: 253,
            description: 'SNI name to match, if not hostname',
          },
        },
        required: ['hostname'],
        additionalProperties: false,
      },
      outputSchema: CERTIFICATE_OUTPUT,
      annotations: { ...READ_ONLY, openWorldHint: true },
    },
    async (args, ctx) => {
      const report: CertificateReport = await checkCertificate(
        {
          hostname: args['hostname'] as string,
          port: typeof args['port'] === 'number' ? args['port'] : 443,
          servername: args['servername'] as string | undefined,
        },
        {
          timeoutMs,
          targets,
          extraCaCertificates: options.extraCaCertificates,
          lookup: options.lookup,
          signal: ctx.signal,
        },
      );
      return {
        content: [{ type: 'text', text: summarizeCertificate(report) }],
        structuredContent: { ...report },
      };
    },
  );
}

function registerJsonTool(server: McpServer, options: UtilixServerOptions): void {
  const maxBytes = options.maxJsonBytes ?? DEFAULT_MAX_JSON_BYTES;
  if (!(Number.isInteger(maxBytes) && maxBytes >= 1)) {
    throw new TypeError('maxJsonBytes must be a positive integer');
  }
  server.tool(
    {
      name: 'format_json',
      title: 'Format JSON',
      description:
        'Pretty-prints or minifies JSON, numbers kept exact. Use it to tidy or check JSON.',
      inputSchema: {
        type: 'object',
        properties: {
          json: {
            type: 'string',
            minLength: 1,
            maxLength: maxBytes,
            description: 'JSON text',
          },
          indent: {
            type: 'integer',
            minimum: 0,
            maximum: 8,
            default: 2,
            description: '0 minifies',
          },
          sort_keys: { type: 'boolean', default: false, description: 'Sort object keys' },
        },
        required: ['json'],
        additionalProperties: false,
      },
      outputSchema: {
        type: 'object',
        properties: {
          formatted: { type: 'string' },
          bytes: { type: 'integer' },
          indent: { type: 'integer' },
          sortKeys: { type: 'boolean' },
        },
        required: ['formatted', 'bytes', 'indent', 'sortKeys'],
        additionalProperties: false,
      },
      annotations: { ...READ_ONLY, openWorldHint: false },
    },
    (args) => {
      const json = args['json'] as string;
      const indent = typeof args['indent'] === 'number' ? args['indent'] : 2;
      const sortKeys = args['sort_keys'] === true;
      const size = Buffer.byteLength(json, 'utf8');
      if (size > maxBytes) {
        throw new Error(
          `json is ${String(size)} bytes; this server takes at most ${String(maxBytes)}`,
        );
      }
      // The output may be larger (indentation); bounded so a deep document cannot explode.
      const formatted = formatJson(json, { indent, sortKeys }, Math.max(4 * maxBytes, 1 << 20));
      return {
        content: [{ type: 'text', text: formatted }],
        structuredContent: {
          formatted,
          bytes: Buffer.byteLength(formatted, 'utf8'),
          indent,
          sortKeys,
        },
      };
    },
  );
}

/** validate_email's structured content. */
const EMAIL_OUTPUT: JsonSchemaObject = {
  type: 'object',
  properties: {
    email: { type: 'string' },
    valid: { type: 'boolean' },
    reason: { type: 'string' },
    localPart: { type: 'string' },
    domain: { type: 'string' },
    asciiDomain: { type: ['string', 'null'] },
    smtputf8: { type: 'boolean' },
    domainCheck: {
      type: 'object',
      properties: {
        result: { enum: ['mx', 'address', 'null-mx', 'none', 'literal'] },
        mx: { type: 'array', items: { type: 'string' } },
        addresses: { type: 'array', items: { type: 'string' } },
      },
      required: ['result', 'mx', 'addresses'],
      additionalProperties: false,
    },
  },
  required: ['email', 'valid', 'reason', 'localPart', 'domain', 'asciiDomain', 'smtputf8'],
  additionalProperties: false,
};

function registerEmailTool(server: McpServer, options: UtilixServerOptions): void {
  const timeoutMs = options.dnsTimeoutMs ?? 10_000;
  let resolver = options.mailResolver;
  server.tool(
    {
      name: 'validate_email',
      title: 'Validate an email address',
      description:
        'Checks an email address: RFC 5321/5322 syntax and, with check_domain, MX or A/AAAA records. Use it before storing one.',
      inputSchema: {
        type: 'object',
        properties: {
          email: {
            type: 'string',
            pattern: '@',
            maxLength: 1024,
            description: 'e.g. jane@example.com',
          },
          check_domain: {
            type: 'boolean',
            default: false,
            description: 'Look up MX, A/AAAA',
          },
        },
        required: ['email'],
        additionalProperties: false,
      },
      outputSchema: EMAIL_OUTPUT,
      annotations: { ...READ_ONLY, openWorldHint: true },
    },
    async (args) => {
      const email = args['email'] as string;
      const syntax = checkEmailSyntax(email);
      const structured: Record<string, unknown> = { email, ...syntax };
      if (!syntax.valid || args['check_domain'] !== true) {
        const text = syntax.valid
          ? `Valid syntax: ${email} (domain not checked).`
          : `Invalid: ${syntax.reason}.`;
        return { content: [{ type: 'text', text }], structuredContent: structured };
      }
      let check: DomainCheck;
      if (syntax.asciiDomain === null) {
        check = { result: 'literal', mx: [], addresses: [] };
      } else {
        resolver ??= defaultMailResolver();
        check = await withTimeout(
          checkMailDomain(syntax.asciiDomain, resolver),
          timeoutMs,
          `no DNS answer for ${syntax.asciiDomain} within ${String(timeoutMs / 1000)} s`,
        );
      }
      return domainAnswer(structured, check, { email, domain: syntax.domain });
    },
  );
}

/** validate_email's answer once the domain was checked: invalid with the problem, or where mail goes. */
function domainAnswer(
  structured: Record<string, unknown>,
  check: DomainCheck,
  names: { email: string; domain: string },
): StructuredToolResult<Record<string, unknown>> {
  const problem = domainProblem(check, names.domain);
  structured['domainCheck'] = check;
  if (problem !== undefined) {
    structured['valid'] = false;
    structured['reason'] = problem;
    return {
      content: [{ type: 'text', text: `Invalid: ${problem}.` }],
      structuredContent: structured,
    };
  }
  structured['reason'] =
    check.result === 'literal'
      ? 'syntax ok (address literal, not looked up)'
      : 'syntax ok, domain accepts mail';
  const where =
    check.result === 'mx'
      ? `mail goes to ${check.mx.join(', ')}`
      : check.result === 'address'
        ? `no MX; mail goes to the domain's address ${check.addresses[0] ?? ''}`
        : 'an address literal, not looked up';
  return {
    content: [{ type: 'text', text: `Valid: ${names.email} (${where}).` }],
    structuredContent: structured,
  };
}

function withTimeout<T>(step: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => {
      reject(new DomainCheckError(message));
    }, ms);
  });
  return Promise.race([step, limit]).finally(() => {
    clearTimeout(timer);
  });
}

export { JsonSyntaxError };
