// check_ssl_certificate's logic, no MCP in it: resolve the name, check every address against the
// operator's policy, open a TLS connection in bounded time, and report the certificate's facts.
// The chain is verified by Node (its trust store plus NODE_EXTRA_CA_CERTS, plus the extra CAs
// given), but the connection is kept on a failure so that the report can say what is wrong.
import { lookup as dnsLookup } from 'node:dns/promises';
import { readFileSync } from 'node:fs';
import { isIP } from 'node:net';
import type { ConnectionOptions, DetailedPeerCertificate, TLSSocket } from 'node:tls';
import { checkServerIdentity, connect, rootCertificates } from 'node:tls';
import { domainToASCII } from 'node:url';
import type { TargetCheck } from './targets.js';

/** How long a check may take, resolving the name included, unless told. */
export const DEFAULT_TLS_TIMEOUT_MS = 10_000;

/** What can be wrong with a certificate, each named for the model. */
export type CertificateProblem =
  'self-signed' | 'expired' | 'not yet valid' | 'wrong host' | 'unknown CA' | 'untrusted';

/** Every {@link CertificateProblem}, for schemas. */
export const CERTIFICATE_PROBLEMS: readonly CertificateProblem[] = [
  'self-signed',
  'expired',
  'not yet valid',
  'wrong host',
  'unknown CA',
  'untrusted',
];

/** The facts check_ssl_certificate reports (its structuredContent). */
export interface CertificateReport {
  hostname: string;
  port: number;
  /** The name sent as SNI and matched against the certificate; null for an IP address. */
  servername: string | null;
  /** The address connected to. */
  address: string;
  subject: string;
  issuer: string;
  subjectAltNames: string[];
  /** Whether the certificate names `servername` (or the IP address connected to). */
  hostnameMatches: boolean;
  validFrom: string;
  validTo: string;
  /** Whole days until validTo; negative once expired. */
  daysLeft: number;
  /** Whether the chain verifies against the trusted CAs (hostname aside). */
  chainTrusted: boolean;
  /** OpenSSL's verification error code when it does not, else null. */
  verifyError: string | null;
  /** Everything wrong, empty when the certificate is fine for this host. */
  problems: CertificateProblem[];
  protocol: string | null;
  cipher: string;
  serialNumber: string;
  fingerprint256: string;
}

/** Resolves a name to its addresses (node:dns/promises lookup with `all: true`, by default). */
export type LookupAll = (hostname: string) => Promise<readonly { address: string }[]>;

/** Options of {@link checkCertificate}. */
export interface CertificateCheckOptions {
  /** Most milliseconds for resolving, connecting and the handshake. Default 10 000. */
  timeoutMs?: number | undefined;
  /** PEM CA certificates trusted besides Node's store and NODE_EXTRA_CA_CERTS. */
  extraCaCertificates?: readonly string[] | undefined;
  /** The operator's address policy; default: every address. */
  targets?: TargetCheck | undefined;
  /** How names are resolved. Default: the system resolver (dns.lookup, all addresses). */
  lookup?: LookupAll | undefined;
  /** Ends the check early. */
  signal?: AbortSignal | undefined;
  /** The current time, for days left. Default: now. */
  now?: Date | undefined;
}

/** A check that could not be made (bad name, refused address, unreachable, timeout): the message is for the model. */
export class CertificateCheckError extends Error {
  override readonly name = 'CertificateCheckError';
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

/** What check_ssl_certificate's `hostname` may be: a DNS name or an IP literal, nothing else. */
export const HOSTNAME_PATTERN: string = `^(?:${DNS_NAME}|${IPV4}|(?:${IPV6})|\\[(?:${IPV6})\\])$`;

/** The pattern of `servername`: a DNS name only (SNI carries no addresses). */
export const SERVERNAME_PATTERN: string = `^${DNS_NAME}$`;

const HOST = new RegExp(HOSTNAME_PATTERN, 'u');
const SNI = new RegExp(SERVERNAME_PATTERN, 'u');

/**
 * Checks that `name` is a host alone (`servername`: a DNS name alone); else throws a
 * {@link CertificateCheckError} that says what to give instead, with the host of a URL or of
 * `host:port` typed by mistake as the example.
 */
export function checkHostArgument(name: string, field: 'hostname' | 'servername'): void {
  if ((field === 'hostname' ? HOST : SNI).test(name)) return;
  if (HOST.test(name)) {
    throw new CertificateCheckError('servername must be a DNS name, not an IP address');
  }
  const typed = hostTyped(name);
  const port =
    typed?.port === undefined || field !== 'hostname' ? '' : `, and ${typed.port} as port`;
  const shown = name.length > 80 ? `${name.slice(0, 80)}…` : name;
  throw new CertificateCheckError(
    `${field} ${JSON.stringify(shown)} is not a host name: give the host name alone, e.g. ${typed?.host ?? 'example.com'}${port}`,
  );
}

/** The host (and port) of a URL or `host:port`, when `name` is one around a valid host. */
function hostTyped(name: string): { host: string; port: string | undefined } | undefined {
  try {
    // A scheme of no default port, so that example.com:443 keeps its port.
    const url = new URL(/^[A-Za-z][A-Za-z0-9+.-]*:\/\//.test(name) ? name : `host://${name}`);
    if (!HOST.test(url.hostname)) return undefined;
    return { host: url.hostname, port: url.port === '' ? undefined : url.port };
  } catch {
    return undefined;
  }
}

/** Connects to `hostname:port` over TLS and reports the certificate. Throws {@link CertificateCheckError}. */
export async function checkCertificate(
  target: { hostname: string; port: number; servername?: string | undefined },
  options: CertificateCheckOptions = {},
): Promise<CertificateReport> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TLS_TIMEOUT_MS;
  checkHostArgument(target.hostname, 'hostname');
  if (target.servername !== undefined) checkHostArgument(target.servername, 'servername');
  const host = asciiHost(target.hostname, 'hostname');
  const servername =
    target.servername === undefined
      ? isIP(host) === 0
        ? host
        : null
      : asciiHost(target.servername, 'servername');
  if (servername !== null && isIP(servername) !== 0) {
    throw new CertificateCheckError('servername must be a DNS name, not an IP address');
  }
  const deadline = bounded(timeoutMs, options.signal, `${target.hostname}:${String(target.port)}`);
  try {
    const addresses = await deadline.race(resolveAll(host, options.lookup));
    for (const address of addresses) {
      const refusal = options.targets?.refusal(address);
      if (refusal !== undefined) {
        throw new CertificateCheckError(
          `refused to connect to ${target.hostname}: ${refusal}. Check a public host instead.`,
        );
      }
    }
    const ca = trustedCas(options.extraCaCertificates);
    const { socket, address } = await deadline.race(
      connectFirst(addresses, { port: target.port, servername, ca }, deadline.signal),
    );
    try {
      return report(socket, {
        hostname: target.hostname,
        port: target.port,
        servername,
        address,
        now: options.now ?? new Date(),
      });
    } finally {
      socket.destroy();
    }
  } finally {
    deadline.clear();
  }
}

/** A host name in ASCII (IDNs to punycode), or the IP literal as is. */
function asciiHost(name: string, field: string): string {
  const bare = name.replace(/^\[(.*)\]$/, '$1');
  if (isIP(bare) !== 0) return bare;
  const ascii = domainToASCII(bare);
  if (ascii === '') throw new CertificateCheckError(`${field} "${name}" is not a valid host name`);
  return ascii;
}

async function resolveAll(host: string, lookup: LookupAll | undefined): Promise<string[]> {
  if (isIP(host) !== 0) return [host];
  const found = await (lookup ?? defaultLookup)(host).catch((error: unknown) => {
    const code = (error as { code?: unknown }).code;
    const why = code === 'ENOTFOUND' ? 'no such host' : String(code ?? error);
    throw new CertificateCheckError(`cannot resolve ${host}: ${why}`);
  });
  if (found.length === 0) throw new CertificateCheckError(`cannot resolve ${host}: no addresses`);
  return found.map((entry) => entry.address);
}

const defaultLookup: LookupAll = (hostname) => dnsLookup(hostname, { all: true, verbatim: true });

/** Node's CAs (with NODE_EXTRA_CA_CERTS) when nothing is added, else those plus the extra ones. */
function trustedCas(extra: readonly string[] | undefined): string[] | undefined {
  if (extra === undefined || extra.length === 0) return undefined;
  // Passing `ca` replaces Node's default store, so it is rebuilt: bundled roots, the
  // NODE_EXTRA_CA_CERTS file's certificates, then the extra ones.
  return [...rootCertificates, ...envExtraCas(), ...extra];
}

let envCas: string[] | undefined;

function envExtraCas(): string[] {
  if (envCas !== undefined) return envCas;
  const file = process.env['NODE_EXTRA_CA_CERTS'];
  envCas = [];
  if (file !== undefined && file !== '') {
    try {
      const text = readFileSync(file, 'utf8'); // once, like Node at start-up
      envCas = text.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? [];
    } catch {
      envCas = []; // Node itself warned at start-up
    }
  }
  return envCas;
}

/** Tries each address in turn until one accepts a TCP connection; the handshake decides after. */
async function connectFirst(
  addresses: readonly string[],
  target: { port: number; servername: string | null; ca: string[] | undefined },
  signal: AbortSignal,
): Promise<{ socket: TLSSocket; address: string }> {
  let lastError: unknown;
  for (const address of addresses) {
    try {
      return { socket: await handshake(address, target, signal), address };
    } catch (error) {
      lastError = error;
      const code = (error as { code?: unknown }).code;
      if (!(typeof code === 'string' && CONNECT_ERRORS.has(code))) break;
    }
  }
  throw describeConnectError(lastError, addresses, target.port);
}

const CONNECT_ERRORS = new Set(['ECONNREFUSED', 'EHOSTUNREACH', 'ENETUNREACH', 'EADDRNOTAVAIL']);

function handshake(
  address: string,
  target: { port: number; servername: string | null; ca: string[] | undefined },
  signal: AbortSignal,
): Promise<TLSSocket> {
  return new Promise((resolve, reject) => {
    const options: ConnectionOptions = {
      host: address,
      port: target.port,
      rejectUnauthorized: false,
      // The name is checked by report(), apart from the chain.
      checkServerIdentity: () => undefined,
      ...(target.servername === null ? {} : { servername: target.servername }),
      ...(target.ca === undefined ? {} : { ca: target.ca }),
    };
    const socket = connect(options);
    const onAbort = () => socket.destroy();
    signal.addEventListener('abort', onAbort, { once: true });
    socket.once('secureConnect', () => {
      signal.removeEventListener('abort', onAbort);
      socket.removeAllListeners('error');
      socket.on('error', () => undefined);
      resolve(socket);
    });
    socket.once('error', (error: Error) => {
      signal.removeEventListener('abort', onAbort);
      socket.destroy();
      reject(error);
    });
    socket.once('close', () => {
      reject(new Error('the connection closed during the TLS handshake'));
    });
  });
}

function describeConnectError(
  error: unknown,
  addresses: readonly string[],
  port: number,
): CertificateCheckError {
  const where = `${addresses.join(', ')} port ${String(port)}`;
  const code = (error as { code?: unknown }).code;
  const message = error instanceof Error ? error.message : String(error);
  if (code === 'ECONNREFUSED') return new CertificateCheckError(`connection refused by ${where}`);
  if (typeof code === 'string' && CONNECT_ERRORS.has(code)) {
    return new CertificateCheckError(`cannot reach ${where} (${code})`);
  }
  return new CertificateCheckError(`TLS handshake with ${where} failed: ${message}`);
}

/** A time limit and an outer signal over several steps. */
function bounded(
  timeoutMs: number,
  outer: AbortSignal | undefined,
  what: string,
): {
  signal: AbortSignal;
  race<T>(step: Promise<T>): Promise<T>;
  clear(): void;
} {
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, timeoutMs);
  const onOuter = () => {
    controller.abort();
  };
  outer?.addEventListener('abort', onOuter, { once: true });
  if (outer?.aborted === true) controller.abort();
  const stopped = new Promise<never>((_resolve, reject) => {
    const fail = () => {
      reject(
        new CertificateCheckError(
          timedOut
            ? `no TLS answer from ${what} within ${String(timeoutMs / 1000)} s`
            : 'the check was cancelled',
        ),
      );
    };
    if (controller.signal.aborted) fail();
    else controller.signal.addEventListener('abort', fail, { once: true });
  });
  stopped.catch(() => undefined);
  return {
    signal: controller.signal,
    race: (step) => Promise.race([step, stopped]),
    clear: () => {
      clearTimeout(timer);
      outer?.removeEventListener('abort', onOuter);
    },
  };
}

/** The report of a completed handshake. */
function report(
  socket: TLSSocket,
  at: { hostname: string; port: number; servername: string | null; address: string; now: Date },
): CertificateReport {
  const cert = socket.getPeerCertificate(true);
  if (Object.keys(cert).length === 0) {
    throw new CertificateCheckError(`${at.hostname} sent no certificate`);
  }
  const validFrom = new Date(cert.valid_from);
  const validTo = new Date(cert.valid_to);
  const verifyError = socket.authorized ? null : errorCode(socket.authorizationError);
  const identity = at.servername ?? at.address;
  const hostnameMatches = checkServerIdentity(identity, cert) === undefined;
  const problems = new Set<CertificateProblem>();
  const named = verifyError === null ? undefined : VERIFY_PROBLEMS[verifyError];
  if (verifyError !== null) problems.add(named ?? 'untrusted');
  if (validTo.getTime() < at.now.getTime()) problems.add('expired');
  if (validFrom.getTime() > at.now.getTime()) problems.add('not yet valid');
  if (!hostnameMatches) problems.add('wrong host');
  const cipher = socket.getCipher();
  return {
    hostname: at.hostname,
    port: at.port,
    servername: at.servername,
    address: at.address,
    subject: distinguishedName(cert.subject),
    issuer: distinguishedName(cert.issuer),
    subjectAltNames: altNames(cert),
    hostnameMatches,
    validFrom: validFrom.toISOString(),
    validTo: validTo.toISOString(),
    daysLeft: Math.floor((validTo.getTime() - at.now.getTime()) / 86_400_000),
    chainTrusted: verifyError === null,
    verifyError,
    problems: CERTIFICATE_PROBLEMS.filter((problem) => problems.has(problem)),
    protocol: socket.getProtocol(),
    cipher: cipher.standardName,
    serialNumber: cert.serialNumber,
    fingerprint256: cert.fingerprint256,
  };
}

function errorCode(error: unknown): string {
  if (error instanceof Error) return (error as { code?: string }).code ?? error.message;
  return String(error);
}

/** OpenSSL's verification codes, by what they mean to a reader. */
const VERIFY_PROBLEMS: Readonly<Record<string, CertificateProblem>> = {
  DEPTH_ZERO_SELF_SIGNED_CERT: 'self-signed',
  SELF_SIGNED_CERT_IN_CHAIN: 'unknown CA',
  UNABLE_TO_GET_ISSUER_CERT: 'unknown CA',
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY: 'unknown CA',
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'unknown CA',
  CERT_UNTRUSTED: 'unknown CA',
  CERT_HAS_EXPIRED: 'expired',
  CERT_NOT_YET_VALID: 'not yet valid',
};

/** `CN=example.com, O=Example` from Node's parsed name (multi-valued fields joined by "+"). */
function distinguishedName(name: DetailedPeerCertificate['subject'] | undefined): string {
  if (name === undefined) return '';
  return Object.entries(name as unknown as Record<string, string | string[]>)
    .map(([key, value]) => `${key}=${Array.isArray(value) ? value.join('+') : value}`)
    .join(', ');
}

/** The subjectAltName entries: `DNS:example.com`, `IP:192.0.2.1`. */
function altNames(cert: DetailedPeerCertificate): string[] {
  const text = cert.subjectaltname;
  if (text === undefined || text === '') return [];
  return text
    .split(/,\s*/)
    .map((entry) => entry.replace(/^IP Address:/, 'IP:'))
    .filter((entry) => entry !== '');
}

/** The short common name (or organization) of a DN, for one-line prose. */
export function shortName(dn: string): string {
  const fields = new Map(
    dn.split(', ').map((pair) => {
      const at = pair.indexOf('=');
      return [pair.slice(0, at), pair.slice(at + 1)] as const;
    }),
  );
  return fields.get('CN') ?? fields.get('O') ?? dn;
}

/** The one-line summary for the model. */
export function summarizeCertificate(report: CertificateReport): string {
  const day = (iso: string) => iso.slice(0, 10);
  const issuer = shortName(report.issuer);
  const name = report.servername ?? report.address;
  const san = report.hostnameMatches
    ? 'SAN matches.'
    : `SAN does not match ${name} (names ${report.subjectAltNames.join(', ') || 'none'}).`;
  const transport = `${report.protocol ?? 'TLS'}, ${report.cipher}`;
  if (report.problems.length === 0) {
    return `Certificate valid until ${day(report.validTo)} (${String(report.daysLeft)} days left), issued by ${issuer}, ${san} Chain trusted; ${transport}.`;
  }
  const validity = report.problems.includes('expired')
    ? `expired on ${day(report.validTo)}`
    : report.problems.includes('not yet valid')
      ? `not valid before ${day(report.validFrom)}`
      : `valid until ${day(report.validTo)} (${String(report.daysLeft)} days left)`;
  const chain = report.chainTrusted
    ? 'Chain trusted'
    : `Chain not trusted (${String(report.verifyError)})`;
  return `Certificate problems: ${report.problems.join(', ')}. Certificate ${validity}, issued by ${issuer}, ${san} ${chain}; ${transport}.`;
}
