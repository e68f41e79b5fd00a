// The outbound-address policy: which IP addresses a server may connect to when a peer names the
// target (utilix's check_ssl_certificate, mcpkit/openapi's redirects). A tool that connects where
// a model says is a server-side request forgery risk when the server runs inside a network (it
// reaches hosts the caller cannot); the operator narrows it with allow and deny lists of
// addresses and CIDR ranges, checked against every address a name resolves to.
import { isIP } from 'node:net';

/** Where a server may connect (utilix's check_ssl_certificate, say). Entries are addresses or CIDR ranges (`10.0.0.0/8`, `::1`). */
export interface TargetPolicy {
  /** Addresses allowed even when `deny` matches them. When set without `deny`, only these are allowed. */
  readonly allow?: readonly string[] | undefined;
  /** Addresses refused unless `allow` matches them. Default: none (or everything, when `allow` is set). */
  readonly deny?: readonly string[] | undefined;
}

/**
 * The ranges no public service lives in: loopback, private (RFC 1918, fc00::/7), carrier-grade
 * NAT, link-local (with cloud metadata at 169.254.169.254), "this network", multicast and
 * reserved. The default deny list of `mcpkit serve utilix --http` beyond loopback.
 */
export const PRIVATE_RANGES: readonly string[] = [
  '0.0.0.0/8',
  '10.0.0.0/8',
  '100.64.0.0/10',
  '127.0.0.0/8',
  '169.254.0.0/16',
  '172.16.0.0/12',
  '192.0.0.0/24',
  '192.168.0.0/16',
  '198.18.0.0/15',
  '224.0.0.0/4',
  '240.0.0.0/4',
  '::/128',
  '::1/128',
  '64:ff9b::/96',
  'fc00::/7',
  'fe80::/10',
  'ff00::/8',
];

/** A parsed range: the address as a big integer of 32 or 128 bits, and the prefix length. */
interface Range {
  readonly family: 4 | 6;
  readonly base: bigint;
  readonly prefix: number;
}

/** A compiled {@link TargetPolicy}. */
export interface TargetCheck {
  /** Undefined when `address` (an IP literal) is allowed, else why not. */
  refusal(address: string): string | undefined;
}

/**
 * Compiles a policy. Each entry is an IP address or `address/prefix`; the word `private` stands
 * for {@link PRIVATE_RANGES}. Throws TypeError naming a malformed entry.
 */
export function compileTargetPolicy(policy: TargetPolicy = {}): TargetCheck {
  const allow = policy.allow?.flatMap(parseEntry);
  const deny =
    policy.deny?.flatMap(parseEntry) ??
    (allow === undefined ? [] : [parseRange('0.0.0.0/0'), parseRange('::/0')]);
  return {
    refusal(address) {
      const parsed = parseAddress(address);
      if (parsed === undefined) return `${address} is not an IP address`;
      if (allow?.some((range) => contains(range, parsed)) === true) return undefined;
      if (!deny.some((range) => contains(range, parsed))) return undefined;
      return `${address} is not an address this server may connect to (the operator's allow/deny lists)`;
    },
  };
}

/** Parses a comma- or space-separated list (an environment variable); undefined when unset. */
export function parseTargetList(text: string | undefined): string[] | undefined {
  if (text === undefined) return undefined;
  return text.split(/[\s,]+/).filter((entry) => entry !== '');
}

function parseEntry(entry: string): Range[] {
  if (entry.trim().toLowerCase() === 'private') return PRIVATE_RANGES.map(parseRange);
  return [parseRange(entry)];
}

function parseRange(entry: string): Range {
  const [address = '', prefixText, extra] = entry.trim().split('/');
  const parsed = parseAddress(address);
  const bits = parsed?.family === 4 ? 32 : 128;
  const prefix = prefixText === undefined ? bits : Number(prefixText);
  if (
    parsed === undefined ||
    extra !== undefined ||
    (prefixText !== undefined && !/^\d{1,3}$/.test(prefixText)) ||
    prefix > bits
  ) {
    throw new TypeError(
      `invalid address range "${entry}": write an IP address or a CIDR range such as 10.0.0.0/8 or fc00::/7`,
    );
  }
  const mask = ((1n << BigInt(prefix)) - 1n) << BigInt(bits - prefix);
  return { family: parsed.family, base: parsed.value & mask, prefix };
}

function contains(range: Range, address: { family: 4 | 6; value: bigint }): boolean {
  if (range.family !== address.family) return false;
  const bits = range.family === 4 ? 32 : 128;
  const shift = BigInt(bits - range.prefix);
  return address.value >> shift === range.base >> shift;
}

/**
 * An IP literal as a number. IPv4-mapped IPv6 (`::ffff:127.0.0.1`) is read as the IPv4 address
 * it carries, so that a deny list of IPv4 ranges covers it too.
 */
function parseAddress(text: string): { family: 4 | 6; value: bigint } | undefined {
  const family = isIP(text);
  if (family === 4) return { family: 4, value: ipv4Value(text) };
  if (family !== 6) return undefined;
  const value = ipv6Value(text);
  if (value >> 32n === 0xffffn) return { family: 4, value: value & 0xffffffffn };
  return { family: 6, value };
}

function ipv4Value(text: string): bigint {
  return text.split('.').reduce((sum, part) => (sum << 8n) | BigInt(Number(part)), 0n);
}

function ipv6Value(text: string): bigint {
  let groups = (text.split('%')[0] ?? '').toLowerCase(); // without a zone (fe80::1%eth0)
  // A trailing dotted IPv4 part is two groups.
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(groups);
  if (dotted?.[1] !== undefined) {
    const v4 = ipv4Value(dotted[1]);
    groups = `${groups.slice(0, dotted.index)}${(v4 >> 16n).toString(16)}:${(v4 & 0xffffn).toString(16)}`;
  }
  const [head = '', tail] = groups.split('::');
  const left = head === '' ? [] : head.split(':');
  const right = tail === undefined || tail === '' ? [] : tail.split(':');
  const zeros =
    tail === undefined ? [] : new Array<string>(8 - left.length - right.length).fill('0');
  return [...left, ...zeros, ...right].reduce(
    (sum, group) => (sum << 16n) | BigInt(parseInt(group, 16)),
    0n,
  );
}
