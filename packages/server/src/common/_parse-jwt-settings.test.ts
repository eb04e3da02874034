// Runs under vitest on Node: unit tests of _parse-jwt-settings.ts.
import { describe, expect, it } from 'vitest';
import { jwtStartupLine, parseJwtSettings } from './_parse-jwt-settings.ts';
import { readStandaloneConfig } from './read-standalone-config.ts';
import { startupLines } from './startup-lines.ts';

const AUTH0 = {
  PLANT_STORE_JWT_ISSUER: 'https://plants-example.eu.auth0.com/',
  PLANT_STORE_JWT_AUDIENCE: 'https://plants.example.com',
  PLANT_STORE_JWKS_URL: 'https://plants-example.eu.auth0.com/.well-known/jwks.json',
};

describe('parseJwtSettings', () => {
  it('is undefined when none of its variables is set, and reads them all when they are', () => {
    expect(parseJwtSettings({ PLANT_STORE_TOKENS: 'x' })).toBeUndefined();
    const settings = parseJwtSettings({ ...AUTH0, PLANT_STORE_JWT_AUDIENCE: ' a, b ', PLANT_STORE_JWT_SCOPE: 'plants:write' });
    expect(settings).toEqual({
      issuer: AUTH0.PLANT_STORE_JWT_ISSUER,
      audience: ['a', 'b'],
      jwksUrl: AUTH0.PLANT_STORE_JWKS_URL,
      scope: 'plants:write',
      cooldownSeconds: 30,
    });
    expect(jwtStartupLine(settings!)).toBe(
      'plant-store: bearer tokens are JWTs from https://plants-example.eu.auth0.com/ for a, b, keys from https://plants-example.eu.auth0.com/.well-known/jwks.json, scope plants:write required',
    );
  });

  it('refuses, in one line naming the variable, settings that cannot work', () => {
    const cases: [Record<string, string>, RegExp][] = [
      [
        { ...AUTH0, PLANT_STORE_TOKENS: 'x' },
        /^PLANT_STORE_TOKENS: set together with PLANT_STORE_JWT_ISSUER, PLANT_STORE_JWT_AUDIENCE, PLANT_STORE_JWKS_URL; tokens are checked one way/,
      ],
      [
        { PLANT_STORE_JWT_ISSUER: AUTH0.PLANT_STORE_JWT_ISSUER },
        /^PLANT_STORE_JWT_AUDIENCE: not set; PLANT_STORE_JWT_ISSUER, PLANT_STORE_JWT_AUDIENCE, PLANT_STORE_JWKS_URL go together/,
      ],
      [{ ...AUTH0, PLANT_STORE_JWKS_URL: ' ' }, /^PLANT_STORE_JWKS_URL: set but empty/],
      [{ PLANT_STORE_JWT_SCOPE: 'plants:write' }, /^PLANT_STORE_JWT_ISSUER: not set/],
      [{ ...AUTH0, PLANT_STORE_JWKS_URL: 'file:///jwks.json' }, /^PLANT_STORE_JWKS_URL: the value must be an absolute http: or https: URL$/],
      [{ ...AUTH0, PLANT_STORE_JWT_SCOPE: 'a"b' }, /^PLANT_STORE_JWT_SCOPE: /],
      [{ ...AUTH0, PLANT_STORE_JWKS_COOLDOWN: '5s' }, /^PLANT_STORE_JWKS_COOLDOWN: expected whole seconds/],
    ];
    for (const [env, message] of cases) {
      expect(() => parseJwtSettings(env), message.source).toThrow(message);
      expect(() => parseJwtSettings(env)).toThrow(/^[^\n]+$/);
    }
  });

  it('gives the standalone server a JWT verifier that the served document calls JWT, and no generated token', () => {
    const config = readStandaloneConfig({ ...AUTH0, PLANT_STORE_JWT_SCOPE: 'plants:write' });
    expect(config.generatedToken).toBeUndefined();
    expect(config.authenticate.describes).toEqual({ bearerFormat: 'JWT', refusals: ['insufficient-scope', 'unavailable'] });
    expect(startupLines(config, 'http://x', { description: 'memory' })).toEqual([
      'plant-store listening on http://x (store: memory)',
      jwtStartupLine(config.jwt!),
    ]);
  });
});
