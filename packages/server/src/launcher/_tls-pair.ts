// Runs in the Node, Bun and Deno launchers and their workers, and the workerd launcher (node:fs, node:crypto): the certificate
// and key PLANT_STORE_TLS_CERT and PLANT_STORE_TLS_KEY name, read, checked, and read again
// when they change.
import { X509Certificate, createPrivateKey } from 'node:crypto';
import { readFileSync, watch, type FSWatcher } from 'node:fs';
import { createSecureContext } from 'node:tls';
import { dirname, resolve } from 'node:path';
import type { LogRecord } from '../common/_format-log-records.ts';
import { writeLogRecords } from '../common/_write-log-records.ts';
import type { StandaloneConfig, TlsFiles } from '../common/read-standalone-config.ts';
import { tlsOptions, type RunningServer, type TlsPair } from '../node-http/serve-node-http.ts';

/** How long the files must stay unchanged before they are read again. */
const SETTLE_MS = 200;

/** A pair read and checked: what to serve, and what to say of it. */
export interface CheckedTlsPair {
  /** The certificate and key, as read, which node:tls accepted together. */
  readonly pair: TlsPair;
  /** The certificate's subject and end of validity, for the lines that name it. */
  readonly summary: string;
  /** Warnings the pair deserves: expired, or not valid yet. */
  readonly warnings: readonly LogRecord[];
}

/**
 * Reads and checks the pair `files` names: a PEM certificate, and the PEM
 * private key that belongs to it.
 *
 * @throws TypeError naming the setting (`PLANT_STORE_TLS_CERT` or `PLANT_STORE_TLS_KEY`) and its file, for a file that cannot be read, holds no certificate or key, or a key that is not the certificate's
 */
export function readTlsPair(files: TlsFiles, now: Date = new Date()): CheckedTlsPair {
  const cert = readSetting('PLANT_STORE_TLS_CERT', files.certPath);
  const key = readSetting('PLANT_STORE_TLS_KEY', files.keyPath);
  let certificate: X509Certificate;
  try {
    certificate = new X509Certificate(cert);
  } catch {
    throw new TypeError(`PLANT_STORE_TLS_CERT: ${files.certPath} holds no PEM certificate`);
  }
  let privateKey: ReturnType<typeof createPrivateKey>;
  try {
    privateKey = createPrivateKey(key);
  } catch {
    throw new TypeError(`PLANT_STORE_TLS_KEY: ${files.keyPath} holds no PEM private key (or one with a passphrase, which is not supported)`);
  }
  if (!certificate.checkPrivateKey(privateKey)) {
    throw new TypeError(`PLANT_STORE_TLS_KEY: the key in ${files.keyPath} is not the key of the certificate in ${files.certPath} (PLANT_STORE_TLS_CERT)`);
  }
  // What OpenSSL itself refuses to serve with (a key too small for its security level, say), named here rather than at listen.
  try {
    createSecureContext(tlsOptions({ cert, key }));
  } catch (error) {
    throw new TypeError(`PLANT_STORE_TLS_CERT: the certificate in ${files.certPath} and its key cannot serve TLS (${(error as Error).message})`);
  }
  const subject = certificate.subject.replaceAll('\n', ', ');
  const summary = `${subject}, valid until ${new Date(certificate.validTo).toISOString()}`;
  const warnings: LogRecord[] = [];
  if (new Date(certificate.validTo) < now) {
    warnings.push({
      level: 'warn',
      msg: `plant-store: PLANT_STORE_TLS_CERT: the certificate in ${files.certPath} (${summary}) has expired; clients will refuse it`,
    });
  } else if (new Date(certificate.validFrom) > now) {
    warnings.push({
      level: 'warn',
      msg: `plant-store: PLANT_STORE_TLS_CERT: the certificate in ${files.certPath} (${subject}) is valid from ${new Date(certificate.validFrom).toISOString()} only; clients will refuse it until then`,
    });
  }
  return { pair: { cert, key }, summary, warnings };
}

function readSetting(name: string, path: string): Buffer {
  try {
    return readFileSync(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new TypeError(`${name}: cannot read ${path} (${code ?? (error as Error).message})`);
  }
}

/**
 * Reads the pair again (`inUse` being the one served now) on SIGHUP and when either file changes (an ACME
 * client replaces them, often by renaming new files or links into place, so
 * each file's directory is watched), once changes have stopped for 200 ms. A
 * pair that reads and checks is handed to `use` when it differs from the last;
 * one that does not is reported in one line, and the last one stays in use.
 * Returns what stops the watching.
 *
 * @param files The settings' paths.
 * @param inUse The pair served now, which an unchanged read leaves alone.
 * @param use Serves a new pair (the server's `setTls`).
 * @param report Writes one line.
 */
export function watchTlsPair(files: TlsFiles, inUse: CheckedTlsPair, use: (checked: CheckedTlsPair) => void, report: (record: LogRecord) => void): () => void {
  let current = fingerprint(inUse.pair);
  let timer: ReturnType<typeof setTimeout> | undefined;
  const reload = () => {
    timer = undefined;
    let checked: CheckedTlsPair;
    try {
      checked = readTlsPair(files);
      if (fingerprint(checked.pair) === current) return;
      use(checked);
    } catch (error) {
      report({ level: 'error', msg: `plant-store: ${(error as Error).message}; the certificate in use stays` });
      return;
    }
    current = fingerprint(checked.pair);
    report({ level: 'info', msg: `plant-store: TLS certificate reloaded from ${files.certPath} (${checked.summary})` });
    for (const warning of checked.warnings) report(warning);
  };
  // Each change pushes the reload back, so that a certificate and key renamed into place a
  // moment apart are read together.
  const soon = () => {
    if (timer !== undefined) clearTimeout(timer);
    timer = setTimeout(reload, SETTLE_MS);
  };
  // Any change in the files' directories counts, not only their names: a secret mounted by
  // Kubernetes is renewed by repointing a `..data` link beside them. The fingerprint check
  // keeps a change that touches neither file cheap and silent.
  const watchers: FSWatcher[] = [];
  for (const directory of new Set([files.certPath, files.keyPath].map((path) => dirname(resolve(path))))) {
    try {
      const watcher = watch(directory, { persistent: false }, soon);
      // A directory that goes away stops its watcher; SIGHUP still reloads.
      watcher.on('error', () => watcher.close());
      watchers.push(watcher);
    } catch {
      // Not watchable here (a full inotify table): SIGHUP still reloads.
    }
  }
  process.on('SIGHUP', soon);
  return () => {
    process.off('SIGHUP', soon);
    for (const watcher of watchers) watcher.close();
    if (timer !== undefined) clearTimeout(timer);
  };
}

/**
 * {@link watchTlsPair} for a launcher's server: each pair that reads and checks
 * goes to `running.setTls`, each line to the log in the configured format.
 * Nothing without TLS.
 *
 * @param config The launcher's settings: `tls`, and the log's format and level.
 * @param inUse The pair the server was started with; undefined without TLS.
 * @param running The server, whose `setTls` takes each new pair.
 * @returns What stops the watching (nothing to stop without TLS).
 */
export function keepTlsPairFresh(config: StandaloneConfig, inUse: CheckedTlsPair | undefined, running: Pick<RunningServer, 'setTls'>): () => void {
  const { setTls } = running;
  if (config.tls === undefined || inUse === undefined || setTls === undefined) return () => {};
  return watchTlsPair(
    config.tls,
    inUse,
    (checked) => setTls(checked.pair),
    (record) => writeLogRecords([record], config),
  );
}

function fingerprint(pair: TlsPair): string {
  return `${Buffer.from(pair.cert).toString('base64')}:${Buffer.from(pair.key).toString('base64')}`;
}
