// validate_email's logic, no MCP in it. Syntax per RFC 5321/5322 the way practical validators
// read them: a dot-atom or quoted local part of at most 64 octets (UTF-8 allowed, RFC 6531), a
// domain of LDH labels with a dot (IDNs through their punycode form) or an address literal,
// 254 octets in all; no comments or folding whitespace. The domain check asks DNS for MX records,
// then A/AAAA (the implicit MX of RFC 5321 §5.1), through a resolver the caller can replace.
import { Resolver } from 'node:dns/promises';
import { isIP } from 'node:net';
import { domainToASCII } from 'node:url';

/** What the syntax check found. */
export interface EmailSyntax {
  valid: boolean;
  /** Why it is invalid, or "syntax ok". */
  reason: string;
  localPart: string;
  domain: string;
  /** The domain in ASCII (punycode for IDNs); null when invalid or an address literal. */
  asciiDomain: string | null;
  /** The local part has non-ASCII characters, which only SMTPUTF8 servers take. */
  smtputf8: boolean;
}

/** The DNS lookups validate_email needs (node:dns/promises `Resolver` has them). */
export interface MailResolver {
  resolveMx(hostname: string): Promise<{ exchange: string; priority: number }[]>;
  resolve4(hostname: string): Promise<string[]>;
  resolve6(hostname: string): Promise<string[]>;
}

/** What DNS says about the domain's mail. */
export interface DomainCheck {
  /** mx: MX records; address: A/AAAA only (implicit MX); null-mx: refuses mail; none: no such records or domain; literal: an address literal, not looked up. */
  result: 'mx' | 'address' | 'null-mx' | 'none' | 'literal';
  /** Mail exchangers, best first. */
  mx: string[];
  /** A/AAAA addresses, when there is no MX. */
  addresses: string[];
}

/** A lookup that failed (timeout, SERVFAIL): neither valid nor invalid. */
export class DomainCheckError extends Error {
  override readonly name = 'DomainCheckError';
}

const MAX_LOCAL_OCTETS = 64;
const MAX_ADDRESS_OCTETS = 254;
const MAX_DOMAIN_LENGTH = 253;
// atext (RFC 5322 §3.2.3) plus non-ASCII (RFC 6531).
const ATEXT = /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~\u0080-\uFFFF-]+$/;
// qtextSMTP and quoted-pairSMTP (RFC 5321 §4.1.2), plus non-ASCII.
const QUOTED = /^"(?:[\x20\x21\x23-\x5B\x5D-\x7E\u0080-\uFFFF]|\\[\x20-\x7E])*"$/;
const LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

const octets = (text: string): number => Buffer.byteLength(text, 'utf8');

/** Checks the syntax of an address. */
export function checkEmailSyntax(email: string): EmailSyntax {
  const at = email.lastIndexOf('@');
  const localPart = at < 0 ? email : email.slice(0, at);
  const domain = at < 0 ? '' : email.slice(at + 1);
  const result = (reason: string, asciiDomain: string | null = null): EmailSyntax => ({
    valid: reason === 'syntax ok',
    reason,
    localPart,
    domain,
    asciiDomain,
    smtputf8: /[^ -~]/.test(localPart),
  });
  if (at < 0) return result('no "@" between a local part and a domain');
  const local = localProblem(localPart);
  if (local !== undefined) return result(local);
  if (domain === '') return result('nothing after "@": the domain is missing');
  if (domain.startsWith('[')) {
    const literal = literalProblem(domain);
    if (literal !== undefined) return result(literal);
    if (octets(localPart) + 1 + domain.length > MAX_ADDRESS_OCTETS) {
      return result(`longer than ${String(MAX_ADDRESS_OCTETS)} octets`);
    }
    return result('syntax ok');
  }
  const ascii = asciiDomainOf(domain);
  if (typeof ascii !== 'string') return result(ascii.problem);
  if (octets(localPart) + 1 + ascii.length > MAX_ADDRESS_OCTETS) {
    return result(`longer than ${String(MAX_ADDRESS_OCTETS)} octets`, ascii);
  }
  return result('syntax ok', ascii);
}

function localProblem(local: string): string | undefined {
  if (local === '') return 'nothing before "@": the local part is empty';
  if (octets(local) > MAX_LOCAL_OCTETS) {
    return `the local part is ${String(octets(local))} octets long (at most ${String(MAX_LOCAL_OCTETS)})`;
  }
  if (local.startsWith('"')) {
    return QUOTED.test(local)
      ? undefined
      : 'the quoted local part is malformed (a quote or backslash inside must be escaped with "\\", and it must end with a quote)';
  }
  if (local.startsWith('.')) return 'the local part starts with a dot';
  if (local.endsWith('.')) return 'the local part ends with a dot';
  if (local.includes('..')) return 'the local part has two dots in a row';
  for (const atom of local.split('.')) {
    if (!ATEXT.test(atom)) {
      const bad = Array.from(atom).find((char) => !ATEXT.test(char)) ?? '';
      if (bad === '(' || bad === ')') return 'comments "( … )" are not accepted in an address';
      return /\s/.test(bad)
        ? 'whitespace in the local part (only a quoted local part may hold spaces)'
        : `the character ${JSON.stringify(bad)} is not allowed in an unquoted local part`;
    }
  }
  return undefined;
}

function literalProblem(domain: string): string | undefined {
  const inner = /^\[(.*)\]$/.exec(domain)?.[1];
  if (inner === undefined) return 'the address literal has no closing "]"';
  const v6 = /^IPv6:(.*)$/i.exec(inner)?.[1];
  if (v6 !== undefined) return isIP(v6) === 6 ? undefined : `"${v6}" is not an IPv6 address`;
  return isIP(inner) === 4
    ? undefined
    : `"${inner}" is not an IPv4 address (write [IPv6:…] for IPv6)`;
}

/** The domain in ASCII, or what is wrong with it. */
function asciiDomainOf(domain: string): string | { problem: string } {
  if (/\s/.test(domain)) return { problem: 'whitespace in the domain' };
  if (domain.startsWith('.') || domain.endsWith('.')) {
    return { problem: 'the domain starts or ends with a dot' };
  }
  if (domain.includes('..')) return { problem: 'the domain has two dots in a row' };
  const ascii = domainToASCII(domain);
  if (ascii === '') return { problem: `"${domain}" is not a valid domain name` };
  if (ascii.length > MAX_DOMAIN_LENGTH) {
    return { problem: `the domain is longer than ${String(MAX_DOMAIN_LENGTH)} characters` };
  }
  const labels = ascii.split('.');
  if (labels.length < 2) {
    return {
      problem: `the domain "${domain}" has no dot (mail on the internet needs a full domain such as example.com)`,
    };
  }
  for (const label of labels) {
    if (label.length > 63)
      return { problem: `the domain label "${label}" is longer than 63 characters` };
    if (!LABEL.test(label)) {
      return {
        problem: `the domain label "${label}" may hold only letters, digits and inner hyphens`,
      };
    }
  }
  if (/^\d+$/.test(labels[labels.length - 1] ?? '')) {
    return { problem: 'the domain ends in a number (write an IP address as [192.0.2.1])' };
  }
  return ascii;
}

/** A resolver with bounded time: 3 s a try, two tries. */
export function defaultMailResolver(): MailResolver {
  return new Resolver({ timeout: 3000, tries: 2 });
}

const NO_RECORDS = new Set(['ENODATA', 'ENOTFOUND', 'ENOTIMP']);

/** Looks up where mail for `asciiDomain` goes. Throws {@link DomainCheckError} when DNS fails. */
export async function checkMailDomain(
  asciiDomain: string,
  resolver: MailResolver,
): Promise<DomainCheck> {
  const code = (error: unknown): string => String((error as { code?: unknown }).code ?? error);
  let mx: { exchange: string; priority: number }[];
  try {
    mx = await resolver.resolveMx(asciiDomain);
  } catch (error) {
    if (!NO_RECORDS.has(code(error))) {
      throw new DomainCheckError(`could not look up MX records of ${asciiDomain}: ${code(error)}`);
    }
    if (code(error) === 'ENOTFOUND') return { result: 'none', mx: [], addresses: [] };
    mx = [];
  }
  if (mx.length === 1 && (mx[0]?.exchange === '' || mx[0]?.exchange === '.')) {
    return { result: 'null-mx', mx: [], addresses: [] };
  }
  if (mx.length > 0) {
    const sorted = [...mx].sort((a, b) => a.priority - b.priority);
    return { result: 'mx', mx: sorted.map((record) => record.exchange), addresses: [] };
  }
  const answers = await Promise.allSettled([
    resolver.resolve4(asciiDomain),
    resolver.resolve6(asciiDomain),
  ]);
  const addresses = answers.flatMap((answer) =>
    answer.status === 'fulfilled' ? answer.value : [],
  );
  if (addresses.length > 0) return { result: 'address', mx: [], addresses };
  const failed = answers.find(
    (answer) => answer.status === 'rejected' && !NO_RECORDS.has(code(answer.reason)),
  );
  if (failed?.status === 'rejected') {
    throw new DomainCheckError(
      `could not look up addresses of ${asciiDomain}: ${code(failed.reason)}`,
    );
  }
  return { result: 'none', mx: [], addresses: [] };
}

/** Why a domain check makes an address undeliverable, or undefined when mail can go there. */
export function domainProblem(check: DomainCheck, domain: string): string | undefined {
  if (check.result === 'null-mx') return `${domain} accepts no mail (a null MX record, RFC 7505)`;
  if (check.result === 'none')
    return `${domain} has no MX, A or AAAA records: mail cannot be delivered`;
  return undefined;
}
