// utilix: remote-style utilities as tools: check a host's TLS certificate, format JSON, validate
// an email address. Each input schema is tight enough that malformed input (a URL where a host
// name belongs, a port that is not one) is refused before a handler runs, each tool answers
// structuredContent with a one-line text for the model, and check_ssl_certificate connects only
// where the operator's address policy allows.
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
      instructions:
        'Utilities: check_ssl_certificate inspects a host’s TLS certificate, format_json ' +
        'pretty-prints or minifies JSON, validate_email checks an address (and its domain).',
      ...options.server,
    },
  );
  registerUtilix(server, options);
  return server;
}

// A DNS name (IDNs as typed or in punycode; the last label not all digits), an IPv4 address, or
// an IPv6 address (bare or in brackets). No scheme, path, port or spaces.
const L = 'A-Za-z0-9\\u00A1-\\uFFFF';
const DNS_LABEL = `[${L}](?:[${L}-]{0,61}[${L}])?`;
const DNS_NAME = `(?=.{1,253}$)(?:${DNS_LABEL}\\.)*(?![0-9]+$)${DNS_LABEL}`;
const OCTET = '(?:25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)';
const IPV4 = `(?:${OCTET}\\.){3}${OCTET}`;
const H = '[0-9A-Fa-f]{1,4}';
const IPV6 = [
  `(?:${H}:){7}${H}`,
  `(?:${H}:){1,7}:`,
  `(?:${H}:){1,6}:${H}`,
  `(?:${H}:){1,5}(?::${H}){1,2}`,
  `(?:${H}:){1,4}(?::${H}){1,3}`,
  `(?:${H}:){1,3}(?::${H}){1,4}`,
  `(?:${H}:){1,2}(?::${H}){1,5}`,
  `${H}:(?::${H}){1,6}`,
  `:(?:(?::${H}){1,7}|:)`,
  `::(?:[Ff]{4}(?::0{1,4})?:)?${IPV4}`,
  `(?:${H}:){1,4}:${IPV4}`,
].join('|');

/** The pattern of check_ssl_certificate's `hostname`: a DNS name or an IP literal, nothing else. */
export const HOSTNAME_PATTERN: string = `^(?:${DNS_NAME}|${IPV4}|(?:${IPV6})|\\[(?:${IPV6})\\])$`;

/** The pattern of `servername`: a DNS name only (SNI carries no addresses). */
export const SERVERNAME_PATTERN: string = `^${DNS_NAME}$`;

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
  required: [
    'hostname',
    'port',
    'servername',
    'address',
    'subject',
    'issuer',
    'subjectAltNames',
    'hostnameMatches',
    'validFrom',
    'validTo',
    'daysLeft',
    'chainTrusted',
    'verifyError',
    'problems',
    'protocol',
    'cipher',
    'serialNumber',
    'fingerprint256',
  ],
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
        "Connects to a host over TLS and reports its certificate: subject, issuer, SANs and whether they match the host, validity dates and days left, whether the chain is trusted (naming self-signed, expired, not yet valid, wrong host or unknown CA), protocol and cipher. Use it to check a site's certificate or to explain a TLS error.",
      inputSchema: {
        type: 'object',
        properties: {
          hostname: {
            type: 'string',
            pattern: HOSTNAME_PATTERN,
            maxLength: 253,
            description:
              'The host name or IP address alone, e.g. example.com or 192.0.2.1: no https://, path or :port.',
          },
          port: {
            type: 'integer',
            minimum: 1,
            maximum: 65535,
            default: 443,
            description: 'The TCP port, e.g. 8443.',
          },
          servername: {
            type: 'string',
            pattern: SERVERNAME_PATTERN,
            maxLength: 253,
            description:
              'The name to send as SNI and match the certificate against, when it differs from hostname (e.g. hostname is an IP address).',
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
        'Pretty-prints JSON with the given indent, or minifies it with indent 0, optionally sorting object keys; numbers and strings are kept exactly as written. Use it to tidy, compact or check JSON: invalid JSON is reported with its line and column.',
      inputSchema: {
        type: 'object',
        properties: {
          json: {
            type: 'string',
            minLength: 1,
            maxLength: maxBytes,
            description: `The JSON text, e.g. {"b":1,"a":[true,null]} (at most ${String(maxBytes)} bytes).`,
          },
          indent: {
            type: 'integer',
            minimum: 0,
            maximum: 8,
            default: 2,
            description: 'Spaces per level; 0 minifies.',
          },
          sort_keys: {
            type: 'boolean',
            default: false,
            description: "Sort every object's keys.",
          },
        },
        required: ['json'],
        additionalProperties: false,
      },
      outputSchema: {
        type: 'object',
        properties: {
          formatted: { type: 'string' },
          bytes: { type: 'integer', minimum: 0 },
          indent: { type: 'integer', minimum: 0, maximum: 8 },
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
        'Checks an email address against RFC 5321/5322 syntax (length limits, dots, quoted local parts, international domains) and, with check_domain, whether its domain has MX or A/AAAA records. Answers valid or invalid with the reason. Use it before storing or mailing an address; it sends no mail.',
      inputSchema: {
        type: 'object',
        properties: {
          email: {
            type: 'string',
            pattern: '@',
            maxLength: 1024,
            description: 'The address to check, e.g. jane.doe@example.com.',
          },
          check_domain: {
            type: 'boolean',
            default: false,
            description: 'Also look up the domain in DNS (MX, then A/AAAA).',
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
