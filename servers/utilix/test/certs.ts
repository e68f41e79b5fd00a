// Test helper: X.509 certificates made with the openssl binary in a temp folder, and one TLS
// server on 127.0.0.1 that picks a certificate by SNI. Tests skip visibly without openssl.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Server, SecureContext } from 'node:tls';
import { createSecureContext, createServer } from 'node:tls';

/** Whether the openssl binary runs here. */
export const HAS_OPENSSL: boolean =
  spawnSync('openssl', ['version'], { encoding: 'utf8' }).status === 0;
// eslint-disable-next-line no-console -- the visible reason for the skip
if (!HAS_OPENSSL) console.log('utilix TLS tests: skipped, the openssl binary is not installed');

/** A key and its certificate, PEM. */
export interface KeyPair {
  key: string;
  cert: string;
}

/** What {@link makeCertificates} makes. */
export interface TestCertificates {
  /** The folder they are in (ca.pem is the CA's certificate file). */
  dir: string;
  ca: KeyPair;
  /** localhost, valid.test and 127.0.0.1, by the CA, valid for a year. */
  valid: KeyPair;
  /** expired.test, by the CA, 2020 to 2021. */
  expired: KeyPair;
  /** future.test, by the CA, 2040 to 2041. */
  future: KeyPair;
  /** other.test only, by the CA (served for wrong.test). */
  wrongName: KeyPair;
  /** self.test, signed by itself. */
  selfSigned: KeyPair;
  /** unknown.test, by a CA nobody trusts. */
  unknownCa: KeyPair;
  remove(): void;
}

const CA_CONFIG = `[ca]
default_ca = test_ca
[test_ca]
database = index.txt
new_certs_dir = .
serial = serial
default_md = sha256
policy = any
unique_subject = no
[any]
commonName = supplied
`;

/** Makes the test certificates (EC P-256 keys: fast). Throws when openssl fails. */
export function makeCertificates(): TestCertificates {
  const dir = mkdtempSync(join(tmpdir(), 'utilix-certs-'));
  const run = (args: string[]) => {
    const result = spawnSync('openssl', args, { cwd: dir, encoding: 'utf8' });
    if (result.status !== 0) throw new Error(`openssl ${args[0] ?? ''}: ${result.stderr}`);
  };
  const read = (name: string): KeyPair => ({
    key: readFileSync(join(dir, `${name}.key`), 'utf8'),
    cert: readFileSync(join(dir, `${name}.pem`), 'utf8'),
  });
  const newKey = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes'];
  const authority = (name: string, cn: string) => {
    run(
      ['req', '-x509', ...newKey, '-keyout', `${name}.key`, '-out', `${name}.pem`]
        .concat(['-subj', `/CN=${cn}`, '-days', '30'])
        .concat(['-addext', 'basicConstraints=critical,CA:TRUE'])
        .concat(['-addext', 'keyUsage=critical,keyCertSign,cRLSign']),
    );
    writeFileSync(join(dir, `${name}.cnf`), CA_CONFIG);
  };
  writeFileSync(join(dir, 'index.txt'), '');
  writeFileSync(join(dir, 'serial'), '01\n');
  authority('ca', 'utilix test CA');
  authority('rogue', 'utilix rogue CA');
  const leaf = (name: string, cn: string, san: string, dates: [string, string], by = 'ca') => {
    run(['req', ...newKey, '-keyout', `${name}.key`, '-out', `${name}.csr`, '-subj', `/CN=${cn}`]);
    writeFileSync(join(dir, `${name}.ext`), `subjectAltName=${san}\n`);
    run(
      ['ca', '-config', `${by}.cnf`, '-batch', '-notext', '-cert', `${by}.pem`]
        .concat(['-keyfile', `${by}.key`, '-in', `${name}.csr`, '-out', `${name}.pem`])
        .concat(['-startdate', dates[0], '-enddate', dates[1], '-extfile', `${name}.ext`]),
    );
  };
  const year = new Date().getUTCFullYear();
  const current: [string, string] = [
    `${String(year - 1)}0101000000Z`,
    `${String(year + 1)}1231000000Z`,
  ];
  leaf('valid', 'localhost', 'DNS:localhost,DNS:valid.test,IP:127.0.0.1', current);
  leaf('expired', 'expired.test', 'DNS:expired.test', ['20200101000000Z', '20210101000000Z']);
  leaf('future', 'future.test', 'DNS:future.test', ['20400101000000Z', '20410101000000Z']);
  leaf('wrong', 'other.test', 'DNS:other.test', current);
  leaf('unknown', 'unknown.test', 'DNS:unknown.test', current, 'rogue');
  run(
    ['req', '-x509', ...newKey, '-keyout', 'self.key', '-out', 'self.pem'].concat([
      '-subj',
      '/CN=self.test',
      '-days',
      '30',
      '-addext',
      'subjectAltName=DNS:self.test',
    ]),
  );
  return {
    dir,
    ca: read('ca'),
    valid: read('valid'),
    expired: read('expired'),
    future: read('future'),
    wrongName: read('wrong'),
    selfSigned: read('self'),
    unknownCa: read('unknown'),
    remove: () => {
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A TLS server on 127.0.0.1: SNI <name>.test picks that certificate, anything else the valid one. */
export async function startTlsServer(
  certs: TestCertificates,
): Promise<{ server: Server; port: number; close(): Promise<void> }> {
  const contexts = new Map<string, SecureContext>(
    (
      [
        ['valid.test', certs.valid],
        ['expired.test', certs.expired],
        ['future.test', certs.future],
        ['wrong.test', certs.wrongName],
        ['self.test', certs.selfSigned],
        ['unknown.test', certs.unknownCa],
      ] as const
    ).map(([name, pair]) => [name, createSecureContext(pair)]),
  );
  const server = createServer({
    ...certs.valid,
    SNICallback: (name, done) => {
      done(null, contexts.get(name));
    },
  });
  server.on('secureConnection', (socket) => {
    socket.end();
  });
  server.on('tlsClientError', () => undefined);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    server,
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => {
          resolve();
        });
      }),
  };
}
