// Runs in the test process (Node): certificates of the tests' own, made with the openssl command
// (Debian's, present wherever the tests run): a CA, and leaf certificates for localhost and
// 127.0.0.1 that it signs.
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** A certificate and its key, as PEM files. */
export interface TestCertificate {
  readonly certPath: string;
  readonly keyPath: string;
  readonly cert: string;
  readonly key: string;
}

/** The tests' own certificate authority: its certificate, to trust, and a way to make leaves it signs. */
export interface TestAuthority {
  /** The CA's certificate, in PEM: what a client trusts. */
  readonly ca: string;
  /**
   * A leaf for `localhost` and `127.0.0.1` named `name` (its CN), valid for
   * `days` (negative: expired that many days ago), signed by the CA, written
   * as `<name>.pem` and `<name>.key` in the authority's directory.
   */
  leaf(name: string, days?: number): TestCertificate;
}

const openssl = (args: string[]) => execFileSync('openssl', args, { stdio: ['ignore', 'pipe', 'pipe'] });

/** Makes a CA in `directory` (which must exist). */
export function createTestAuthority(directory: string): TestAuthority {
  const caKey = join(directory, 'ca.key');
  const caCert = join(directory, 'ca.pem');
  openssl([
    'req',
    '-x509',
    '-newkey',
    'ec',
    '-pkeyopt',
    'ec_paramgen_curve:P-256',
    '-nodes',
    '-keyout',
    caKey,
    '-out',
    caCert,
    '-days',
    '2',
    '-subj',
    '/CN=Plant Store test CA',
  ]);
  const extensions = join(directory, 'leaf.ext');
  writeFileSync(extensions, 'subjectAltName=DNS:localhost,IP:127.0.0.1\n');
  return {
    ca: readFileSync(caCert, 'utf8'),
    leaf(name, days = 2) {
      const keyPath = join(directory, `${name}.key`);
      const certPath = join(directory, `${name}.pem`);
      const request = join(directory, `${name}.csr`);
      openssl(['req', '-new', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes', '-keyout', keyPath, '-out', request, '-subj', `/CN=${name}`]);
      openssl([
        'x509',
        '-req',
        '-in',
        request,
        '-CA',
        caCert,
        '-CAkey',
        caKey,
        '-CAcreateserial',
        '-days',
        String(days),
        '-extfile',
        extensions,
        '-out',
        certPath,
      ]);
      return { certPath, keyPath, cert: readFileSync(certPath, 'utf8'), key: readFileSync(keyPath, 'utf8') };
    },
  };
}
