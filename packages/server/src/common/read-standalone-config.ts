// Runs wherever a standalone server reads its settings: the Node, Bun, Deno and workerd launchers, and the Worker.
import { staticTokens, type Authenticate, type OverloadOptions, type RateLimitOptions } from '@plant-store/core';
import { parseCorsOrigins } from './_parse-cors-origins.ts';
import { parseDatabaseUrl, type StoreChoice } from './_parse-database-url.ts';
import { jwtVerifier, parseJwtSettings, type JwtEnv, type JwtSettings } from './_parse-jwt-settings.ts';
import { parseOverload } from './_parse-overload.ts';
import { parseRateLimit } from './_parse-rate-limit.ts';
import { parseSwitch } from './_parse-switch.ts';
import type { LogLevel } from './_json-log-line.ts';
import { LOG_LEVELS, writesLevel } from './_log-level.ts';
import type { LogFormat } from './log-format.ts';

/**
 * How long, by default, an answer may wait for its client to take any of its
 * bytes before the standalone server cuts the connection: as long as a client
 * may take to send its whole request.
 */
export const DEFAULT_WRITE_TIMEOUT_MS = 30_000;

/** Environment variables a standalone server reads; all optional. The tokens' and the JWT verifier's are {@link JwtEnv}'s. */
export interface StandaloneEnv extends JwtEnv {
  readonly HOST?: string | undefined;
  readonly PORT?: string | undefined;
  readonly PLANT_STORE_ACCESS_LOG?: string | undefined;
  readonly PLANT_STORE_DATABASE_URL?: string | undefined;
  readonly PLANT_STORE_WORKERS?: string | undefined;
  readonly PLANT_STORE_LOG_FORMAT?: string | undefined;
  readonly PLANT_STORE_LOG_LEVEL?: string | undefined;
  readonly PLANT_STORE_METRICS?: string | undefined;
  readonly PLANT_STORE_CORS_ORIGINS?: string | undefined;
  readonly PLANT_STORE_DOCS?: string | undefined;
  readonly PLANT_STORE_MAX_IN_FLIGHT?: string | undefined;
  readonly PLANT_STORE_MAX_EVENT_LOOP_DELAY_MS?: string | undefined;
  readonly PLANT_STORE_RATE_LIMIT?: string | undefined;
  readonly PLANT_STORE_WRITE_TIMEOUT_MS?: string | undefined;
  readonly PLANT_STORE_TLS_CERT?: string | undefined;
  readonly PLANT_STORE_TLS_KEY?: string | undefined;
  readonly PLANT_STORE_TLS_PROXY?: string | undefined;
}

/** Where the certificate and key to serve HTTPS with are (`PLANT_STORE_TLS_CERT`, `PLANT_STORE_TLS_KEY`): PEM files, read by the launcher. */
export interface TlsFiles {
  /** `PLANT_STORE_TLS_CERT`: the certificate, its chain after it. */
  readonly certPath: string;
  /** `PLANT_STORE_TLS_KEY`: its private key. */
  readonly keyPath: string;
}

/** How a standalone server should run, the same on every runtime. */
export interface StandaloneConfig {
  readonly host: string;
  readonly port: number;
  readonly authenticate: Authenticate;
  /** Set when `PLANT_STORE_TOKENS` was unset: the one token accepted, to print once. */
  readonly generatedToken?: string;
  /** Set when tokens are JWTs (`PLANT_STORE_JWT_ISSUER` and its companions) instead of `PLANT_STORE_TOKENS`. */
  readonly jwt?: JwtSettings;
  /** Whether access-log lines are written: `PLANT_STORE_ACCESS_LOG` on, and `PLANT_STORE_LOG_LEVEL` at `info` or `debug`. */
  readonly accessLog: boolean;
  /** Where plants are kept (`PLANT_STORE_DATABASE_URL`). */
  readonly store: StoreChoice;
  /** Processes serving one port (`PLANT_STORE_WORKERS`; Node, Bun and Deno run them, workerd one); 1 unless set. */
  readonly workers: number;
  /** How every log line is written (`PLANT_STORE_LOG_FORMAT`); `text` unless set. */
  readonly logFormat: LogFormat;
  /** The least severe line written (`PLANT_STORE_LOG_LEVEL`); `info` unless set. */
  readonly logLevel: LogLevel;
  /** Whether `/metrics` is served, behind the token (`PLANT_STORE_METRICS`); on unless switched off. */
  readonly metrics: boolean;
  /** Origins allowed by CORS (`PLANT_STORE_CORS_ORIGINS`), as browsers send them, or `*` for all; empty: CORS off. */
  readonly corsOrigins: readonly string[] | '*';
  /** Whether the API reference page is served at `/docs` (`PLANT_STORE_DOCS`); on unless switched off. */
  readonly docs: boolean;
  /** The overload bounds of each process (`PLANT_STORE_MAX_IN_FLIGHT`, `PLANT_STORE_MAX_EVENT_LOOP_DELAY_MS`); undefined when both are 0. */
  readonly overload: OverloadOptions | undefined;
  /** The per-token rate limit of each process (`PLANT_STORE_RATE_LIMIT`); undefined: off. */
  readonly rateLimit: RateLimitOptions | undefined;
  /**
   * How long an answer may wait for its client to take any of its bytes before the connection is cut
   * (`PLANT_STORE_WRITE_TIMEOUT_MS`), in ms; 30 000 unless set, 0 for no bound. Node, Deno and workerd's front
   * read it; Bun cuts a stalled answer after its idle timeout instead.
   */
  readonly writeTimeoutMs: number;
  /** The PEM files to serve HTTPS with (`PLANT_STORE_TLS_CERT` and `PLANT_STORE_TLS_KEY`); undefined: plain HTTP. */
  readonly tls: TlsFiles | undefined;
  /** Whether TLS ends at a proxy in front (`PLANT_STORE_TLS_PROXY`): no warning for plain HTTP on an address other than loopback. */
  readonly tlsProxy: boolean;
}

/**
 * Reads a standalone server's settings from its environment (docs/contract.md,
 * "Standalone runs"): `HOST` (default `127.0.0.1`), `PORT` (default 8080),
 * `PLANT_STORE_TOKENS` (comma-separated; when unset a random token is made so
 * the server is never open, and when set with no token in it the start stops,
 * since that is how a secret missing from a deployment arrives),
 * `PLANT_STORE_ACCESS_LOG` (a switch: `on`/`off`, `true`/`false`, `yes`/`no`, `1`/`0`),
 * `PLANT_STORE_DATABASE_URL` (the store: `memory:`, `sqlite:PATH`, `postgres://…`),
 * `PLANT_STORE_WORKERS` (processes on one port, 1 to 256; they need a shared store, so `memory:` is refused),
 * `PLANT_STORE_LOG_FORMAT` (`text` or `json`), `PLANT_STORE_CORS_ORIGINS`
 * (`*` or comma-separated origins), `PLANT_STORE_DOCS` (a switch), the
 * overload bounds `PLANT_STORE_MAX_IN_FLIGHT` and
 * `PLANT_STORE_MAX_EVENT_LOOP_DELAY_MS` (whole numbers, 0 for none) and
 * `PLANT_STORE_RATE_LIMIT` (`LIMIT/SECONDS`, or off), `PLANT_STORE_WRITE_TIMEOUT_MS`
 * (a whole number of ms, 0 for no bound), `PLANT_STORE_TLS_CERT` and `PLANT_STORE_TLS_KEY`
 * (paths, both or neither) and `PLANT_STORE_TLS_PROXY` (a switch).
 *
 * @throws TypeError naming the variable for any setting that cannot work, so a server refuses to start.
 */
export function readStandaloneConfig(env: StandaloneEnv): StandaloneConfig {
  const host = env.HOST?.trim() || '127.0.0.1';
  const portText = env.PORT?.trim() || '8080';
  const port = Number(portText);
  if (!/^\d+$/.test(portText) || port > 65535) throw new TypeError(`PORT: expected 0 to 65535, got ${JSON.stringify(portText)}`);
  // JWTs (docs/auth.md) or fixed tokens, never both: parseJwtSettings refuses the two together.
  const jwt = parseJwtSettings(env);
  const tokens = (env.PLANT_STORE_TOKENS ?? '')
    .split(',')
    .map((token) => token.trim())
    .filter((token) => token !== '');
  if (tokens.length === 0 && env.PLANT_STORE_TOKENS !== undefined) {
    throw new TypeError('PLANT_STORE_TOKENS: set but holds no token; set it to the accepted tokens, comma-separated, or unset it to have one made and printed');
  }
  const generatedToken = tokens.length === 0 && jwt === undefined ? randomToken() : undefined;
  const logFormat = oneOf('PLANT_STORE_LOG_FORMAT', env.PLANT_STORE_LOG_FORMAT, ['text', 'json'] as const);
  let authenticate: Authenticate;
  try {
    authenticate = jwt !== undefined ? jwtVerifier(jwt, logFormat) : staticTokens(generatedToken === undefined ? tokens : [generatedToken]);
  } catch (error) {
    throw new TypeError(`PLANT_STORE_TOKENS: ${(error as Error).message.replace('staticTokens: ', '')}`);
  }
  const accessLogSwitch = parseSwitch('PLANT_STORE_ACCESS_LOG', env.PLANT_STORE_ACCESS_LOG, true);
  const store = parseDatabaseUrl(env.PLANT_STORE_DATABASE_URL);
  const workersText = env.PLANT_STORE_WORKERS?.trim() || '1';
  const workers = Number(workersText);
  if (!/^\d+$/.test(workersText) || workers < 1 || workers > 256) {
    throw new TypeError(`PLANT_STORE_WORKERS: expected a number of processes from 1 to 256, got ${JSON.stringify(workersText)}`);
  }
  if (workers > 1 && store.kind === 'memory') {
    throw new TypeError(
      `PLANT_STORE_WORKERS: ${workers} processes need a store they share (sqlite: or postgres://); with memory: each would keep its own plants`,
    );
  }
  const logLevel = oneOf('PLANT_STORE_LOG_LEVEL', env.PLANT_STORE_LOG_LEVEL, ['info', ...LOG_LEVELS.filter((level) => level !== 'info')]);
  // Access-log lines are `info`: a higher level leaves them out, as it leaves out the switch's `on`.
  const accessLog = accessLogSwitch && writesLevel(logLevel, 'info');
  const metrics = parseSwitch('PLANT_STORE_METRICS', env.PLANT_STORE_METRICS, true);
  const corsOrigins = parseCorsOrigins(env.PLANT_STORE_CORS_ORIGINS);
  const docs = parseSwitch('PLANT_STORE_DOCS', env.PLANT_STORE_DOCS, true);
  const overload = parseOverload(env.PLANT_STORE_MAX_IN_FLIGHT, env.PLANT_STORE_MAX_EVENT_LOOP_DELAY_MS);
  const rateLimit = parseRateLimit(env.PLANT_STORE_RATE_LIMIT);
  const writeTimeoutText = env.PLANT_STORE_WRITE_TIMEOUT_MS?.trim() || String(DEFAULT_WRITE_TIMEOUT_MS);
  if (!/^\d{1,9}$/.test(writeTimeoutText)) {
    throw new TypeError(`PLANT_STORE_WRITE_TIMEOUT_MS: expected a whole number of milliseconds, 0 for no bound, got ${JSON.stringify(writeTimeoutText)}`);
  }
  const writeTimeoutMs = Number(writeTimeoutText);
  const tls = parseTlsFiles(env.PLANT_STORE_TLS_CERT, env.PLANT_STORE_TLS_KEY);
  const tlsProxy = parseSwitch('PLANT_STORE_TLS_PROXY', env.PLANT_STORE_TLS_PROXY, false);
  return {
    host,
    port,
    authenticate,
    accessLog,
    store,
    workers,
    logFormat,
    logLevel,
    metrics,
    corsOrigins,
    docs,
    overload,
    rateLimit,
    writeTimeoutMs,
    tls,
    tlsProxy,
    ...(generatedToken === undefined ? {} : { generatedToken }),
    ...(jwt === undefined ? {} : { jwt }),
  };
}

/** Both paths or neither: one alone would serve plain HTTP where HTTPS was meant. Set but empty counts as set (an unset deployment secret). */
function parseTlsFiles(cert: string | undefined, key: string | undefined): TlsFiles | undefined {
  if (cert === undefined && key === undefined) return undefined;
  for (const [name, value, other] of [
    ['PLANT_STORE_TLS_CERT', cert, 'PLANT_STORE_TLS_KEY'],
    ['PLANT_STORE_TLS_KEY', key, 'PLANT_STORE_TLS_CERT'],
  ] as const) {
    if (value === undefined) throw new TypeError(`${name}: not set, while ${other} is; set both to serve HTTPS, or neither`);
    if (value.trim() === '') throw new TypeError(`${name}: set but empty; set it to a PEM file, or unset both ${name} and ${other}`);
  }
  return { certPath: cert!.trim(), keyPath: key!.trim() };
}

/** The value of a switch, any case; unset or empty is the first choice, the default. */
function oneOf<const T extends string>(name: string, value: string | undefined, choices: readonly [T, ...T[]]): T {
  const text = value?.trim().toLowerCase() || choices[0];
  const chosen = choices.find((choice) => choice === text);
  if (chosen === undefined) throw new TypeError(`${name}: expected ${choices.join(' or ')}, got ${JSON.stringify(value?.trim())}`);
  return chosen;
}

function randomToken(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(24));
  let token = '';
  for (const byte of bytes) token += byte.toString(16).padStart(2, '0');
  return token;
}
