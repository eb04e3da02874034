// Runs wherever a standalone server reads its settings: the Node, Bun, Deno and workerd launchers, and the Worker.
import { jwtAuthenticate } from '@plant-store/auth-jwt';
import type { Authenticate } from '@plant-store/core';
import { formatLogRecords } from './_format-log-records.ts';
import type { LogFormat } from './log-format.ts';

/** The JWT verifier's variables, as the environment gives them. */
export interface JwtEnv {
  readonly PLANT_STORE_TOKENS?: string | undefined;
  readonly PLANT_STORE_JWT_ISSUER?: string | undefined;
  readonly PLANT_STORE_JWT_AUDIENCE?: string | undefined;
  readonly PLANT_STORE_JWKS_URL?: string | undefined;
  readonly PLANT_STORE_JWT_SCOPE?: string | undefined;
  readonly PLANT_STORE_JWKS_COOLDOWN?: string | undefined;
}

/** What a standalone server verifies JWTs with, read from {@link JwtEnv}. */
export interface JwtSettings {
  readonly issuer: string;
  readonly audience: readonly string[];
  readonly jwksUrl: string;
  /** Scopes every token must grant, space-separated; undefined: none. */
  readonly scope: string | undefined;
  readonly cooldownSeconds: number;
}

const REQUIRED = ['PLANT_STORE_JWT_ISSUER', 'PLANT_STORE_JWT_AUDIENCE', 'PLANT_STORE_JWKS_URL'] as const;
const ALL = [...REQUIRED, 'PLANT_STORE_JWT_SCOPE', 'PLANT_STORE_JWKS_COOLDOWN'] as const;
// jwtAuthenticate names its options; an operator knows the variables.
const VARIABLE_OF_OPTION: Readonly<Record<string, string>> = {
  issuer: 'PLANT_STORE_JWT_ISSUER',
  audience: 'PLANT_STORE_JWT_AUDIENCE',
  jwksUrl: 'PLANT_STORE_JWKS_URL',
  requiredScope: 'PLANT_STORE_JWT_SCOPE',
  jwksCooldownSeconds: 'PLANT_STORE_JWKS_COOLDOWN',
};

/**
 * Reads the JWT verifier's settings: undefined when none of its variables is
 * set (the server checks `PLANT_STORE_TOKENS`). Issuer, audience
 * (comma-separated) and JWKS URL go together; `PLANT_STORE_JWT_SCOPE` and
 * `PLANT_STORE_JWKS_COOLDOWN` (whole seconds, default 30) are optional. A
 * variable set empty counts as set, as a secret missing from a deployment
 * arrives.
 *
 * @throws TypeError, one line naming the variable, when they are set in part
 *   or together with `PLANT_STORE_TOKENS`, or hold what cannot work.
 */
export function parseJwtSettings(env: JwtEnv): JwtSettings | undefined {
  const set = ALL.filter((name) => env[name] !== undefined);
  if (set.length === 0) return undefined;
  if (env.PLANT_STORE_TOKENS !== undefined) {
    throw new TypeError(
      `PLANT_STORE_TOKENS: set together with ${set.join(', ')}; tokens are checked one way: unset PLANT_STORE_TOKENS to verify JWTs, or unset ${set.join(', ')} to accept fixed tokens`,
    );
  }
  const value = (name: (typeof ALL)[number]) => env[name]?.trim() ?? '';
  for (const name of REQUIRED) {
    if (value(name) === '') {
      throw new TypeError(
        `${name}: ${env[name] === undefined ? 'not set' : 'set but empty'}; ${REQUIRED.join(', ')} go together to verify JWTs (set ${set.join(', ')})`,
      );
    }
  }
  const cooldownText = value('PLANT_STORE_JWKS_COOLDOWN') || '30';
  if (!/^\d+$/.test(cooldownText) || Number(cooldownText) > 3600) {
    throw new TypeError(`PLANT_STORE_JWKS_COOLDOWN: expected whole seconds from 0 to 3600, got ${JSON.stringify(cooldownText)}`);
  }
  const settings: JwtSettings = {
    issuer: value('PLANT_STORE_JWT_ISSUER'),
    audience: value('PLANT_STORE_JWT_AUDIENCE')
      .split(',')
      .map((name) => name.trim())
      .filter((name) => name !== ''),
    jwksUrl: value('PLANT_STORE_JWKS_URL'),
    scope: value('PLANT_STORE_JWT_SCOPE') || undefined,
    cooldownSeconds: Number(cooldownText),
  };
  // Built once here, so that whatever jwtAuthenticate refuses stops the start with the variable's name.
  jwtVerifier(settings);
  return settings;
}

/**
 * The verifier of {@link JwtSettings}: `jwtAuthenticate` with a 5 s JWKS
 * timeout, a 30 s clock tolerance and the configured cooldown; a failed JWKS
 * fetch is written to the error output as one warning naming the URL, in
 * the server's log format.
 *
 * @throws TypeError naming the variable at fault.
 */
export function jwtVerifier(settings: JwtSettings, logFormat: LogFormat = 'text'): Authenticate {
  try {
    return jwtAuthenticate({
      issuer: settings.issuer,
      audience: settings.audience,
      jwksUrl: settings.jwksUrl,
      requiredScope: settings.scope,
      jwksCooldownSeconds: settings.cooldownSeconds,
      onKeysError: (error) => console.error(formatLogRecords([{ level: 'warn', msg: `plant-store: ${error.message}` }], logFormat)),
    });
  } catch (error) {
    const message = (error as Error).message.replace(/^jwtAuthenticate: /, '');
    const option = /`(\w+)`/.exec(message)?.[1];
    throw new TypeError(`${(option !== undefined && VARIABLE_OF_OPTION[option]) || 'PLANT_STORE_JWT_ISSUER'}: ${message.replace(/`\w+`/, 'the value')}`);
  }
}

/** The line a server prints at start when it verifies JWTs: which verifier is in use, with what. */
export function jwtStartupLine(settings: JwtSettings): string {
  const scope = settings.scope === undefined ? '' : `, scope ${settings.scope} required`;
  return `plant-store: bearer tokens are JWTs from ${settings.issuer} for ${settings.audience.join(', ')}, keys from ${settings.jwksUrl}${scope}`;
}
