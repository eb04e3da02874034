// Runs in every standalone launcher: plain data.
import type { LogRecord } from './_format-log-records.ts';
import { jwtStartupLine } from './_parse-jwt-settings.ts';
import type { StandaloneConfig } from './read-standalone-config.ts';

/** What the startup line says of the store: where it keeps plants, and a warning when they will not last. */
export interface StoreDescription {
  readonly description: string;
  readonly warning?: string | undefined;
}

/**
 * What a standalone server says at start, the same on every runtime: where it
 * listens and keeps plants, a warning when plants will not outlive it, and a
 * token it made. Written with {@link formatLogRecords}.
 */
export function startupRecords(config: StandaloneConfig, url: string, store: StoreDescription): LogRecord[] {
  const records: LogRecord[] = [
    { level: 'info', msg: `plant-store listening on ${url} (store: ${store.description})`, fields: { url, store: store.description } },
  ];
  if (store.warning !== undefined) records.push({ level: 'warn', msg: store.warning });
  if (config.generatedToken !== undefined) records.push({ level: 'warn', msg: generatedTokenLine(config.generatedToken) });
  if (config.jwt !== undefined) records.push({ level: 'info', msg: jwtStartupLine(config.jwt) });
  if (url.startsWith('http:') && !config.tlsProxy && !isLoopback(config.host)) records.push({ level: 'warn', msg: plaintextLine(config.host) });
  return records;
}

/** The warning for plain HTTP on an address others can reach: RFC 6750 §5.3 wants bearer tokens sent over TLS only. */
export function plaintextLine(host: string): string {
  return (
    `plant-store: listening on ${host} without TLS: bearer tokens will cross the network in the clear; ` +
    'set PLANT_STORE_TLS_CERT and PLANT_STORE_TLS_KEY, or PLANT_STORE_TLS_PROXY=on behind a proxy that ends TLS'
  );
}

/** Whether `host` is a loopback address (or names one): only this machine can reach it. */
function isLoopback(host: string): boolean {
  const bare = host.replace(/^\[(.*)\]$/, '$1').toLowerCase();
  return bare === 'localhost' || bare === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(bare);
}

/** The lines a standalone server prints at start in the text format ({@link startupRecords}); printed in one write, so that a reader who waits for the first sees them all. */
export function startupLines(config: StandaloneConfig, url: string, store: StoreDescription): string[] {
  return startupRecords(config, url, store).map((record) => record.msg);
}

/** The line that prints a token the server made, once: without it no client could be let in. */
export function generatedTokenLine(token: string): string {
  return `plant-store: PLANT_STORE_TOKENS is not set; the only accepted token is ${token}`;
}
