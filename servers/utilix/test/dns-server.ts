// Test helper: a small authoritative DNS server over UDP on 127.0.0.1 (node:dgram) answering A,
// AAAA and MX queries from a fixed zone: an unknown name is NXDOMAIN, a known name without the
// type asked for is an empty answer (NODATA), a name marked "servfail" fails, "silent" never answers.
import { createSocket } from 'node:dgram';

/** One name's records. */
export interface ZoneEntry {
  A?: string[];
  AAAA?: string[];
  /** [priority, exchange]; an exchange of "" is the null MX (RFC 7505). */
  MX?: [number, string][];
  servfail?: boolean;
  silent?: boolean;
}

const TYPES = { A: 1, MX: 15, AAAA: 28 } as const;

/** Starts the server; `port` is where to point a Resolver (`127.0.0.1:<port>`). */
export async function startDnsServer(
  zone: Readonly<Record<string, ZoneEntry>>,
): Promise<{ port: number; queries: string[]; close(): Promise<void> }> {
  const socket = createSocket('udp4');
  const queries: string[] = [];
  socket.on('message', (query, peer) => {
    const answer = respond(query, zone, queries);
    if (answer !== undefined) socket.send(answer, peer.port, peer.address);
  });
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  return {
    port: socket.address().port,
    queries,
    close: () =>
      new Promise<void>((resolve) => {
        socket.close(() => {
          resolve();
        });
      }),
  };
}

function respond(
  query: Buffer,
  zone: Readonly<Record<string, ZoneEntry>>,
  log: string[],
): Buffer | undefined {
  if (query.length < 12) return undefined;
  let offset = 12;
  const labels: string[] = [];
  for (let length = query[offset] ?? 0; length > 0; length = query[offset] ?? 0) {
    labels.push(query.subarray(offset + 1, offset + 1 + length).toString('ascii'));
    offset += 1 + length;
  }
  offset += 1;
  const type = query.readUInt16BE(offset);
  const question = query.subarray(12, offset + 4);
  const name = labels.join('.').toLowerCase();
  const typeName = Object.entries(TYPES).find(([, code]) => code === type)?.[0] ?? String(type);
  log.push(`${typeName} ${name}`);
  const entry = zone[name];
  if (entry?.silent === true) return undefined;
  const rcode = entry === undefined ? 3 : entry.servfail === true ? 2 : 0;
  const records = rcode === 0 && entry !== undefined ? recordsOf(entry, type) : [];
  const header = Buffer.alloc(12);
  header.writeUInt16BE(query.readUInt16BE(0), 0);
  header.writeUInt16BE(0x8400 | (query.readUInt16BE(2) & 0x0100) | rcode, 2); // QR, AA, RD copied
  header.writeUInt16BE(1, 4);
  header.writeUInt16BE(records.length, 6);
  const answers = records.map((rdata) => {
    const fixed = Buffer.alloc(12);
    fixed.writeUInt16BE(0xc00c, 0); // the question's name
    fixed.writeUInt16BE(type, 2);
    fixed.writeUInt16BE(1, 4); // IN
    fixed.writeUInt32BE(60, 6);
    fixed.writeUInt16BE(rdata.length, 10);
    return Buffer.concat([fixed, rdata]);
  });
  return Buffer.concat([header, question, ...answers]);
}

function recordsOf(entry: ZoneEntry, type: number): Buffer[] {
  if (type === TYPES.A) return (entry.A ?? []).map((a) => Buffer.from(a.split('.').map(Number)));
  if (type === TYPES.AAAA) return (entry.AAAA ?? []).map(ipv6Bytes);
  if (type === TYPES.MX) {
    return (entry.MX ?? []).map(([priority, exchange]) => {
      const head = Buffer.alloc(2);
      head.writeUInt16BE(priority, 0);
      return Buffer.concat([head, encodeName(exchange)]);
    });
  }
  return [];
}

function encodeName(name: string): Buffer {
  const parts = name === '' ? [] : name.split('.');
  return Buffer.concat([
    ...parts.map((label) => Buffer.concat([Buffer.from([label.length]), Buffer.from(label)])),
    Buffer.from([0]),
  ]);
}

function ipv6Bytes(address: string): Buffer {
  const [head = '', tail = ''] = address.split('::');
  const left = head === '' ? [] : head.split(':');
  const right = tail === '' ? [] : tail.split(':');
  const groups = [
    ...left,
    ...new Array<string>(8 - left.length - right.length).fill('0'),
    ...right,
  ];
  const bytes = Buffer.alloc(16);
  groups.forEach((group, index) => bytes.writeUInt16BE(parseInt(group, 16), index * 2));
  return bytes;
}
