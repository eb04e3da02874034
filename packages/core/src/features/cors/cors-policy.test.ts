import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CORS_ALLOWED_HEADERS, CORS_EXPOSED_HEADERS, createCorsPolicy } from './cors-policy.ts';

const ALLOWED = ['https://app.example.com', 'http://localhost:5173'];

describe('createCorsPolicy', () => {
  it('answers a preflight from a listed origin with 200, the exact origin and Vary: Origin', () => {
    const cors = createCorsPolicy({ origins: ALLOWED, maxAgeSeconds: 120, credentials: true });
    const response = cors.preflight('http://localhost:5173', 'POST');
    expect(response).toEqual({
      status: 200,
      body: '',
      headers: {
        'access-control-allow-origin': 'http://localhost:5173',
        'access-control-allow-methods': 'POST',
        'access-control-allow-headers': CORS_ALLOWED_HEADERS,
        'access-control-max-age': '120',
        'access-control-allow-credentials': 'true',
        vary: 'Origin',
      },
    });
    expect(cors.preflight('https://app.example.com', 'GET').headers['access-control-allow-methods']).toBe('GET');
  });

  it('lets a preflight ask for the headers a create may carry, Idempotency-Key included', () => {
    const allowed = createCorsPolicy({ origins: ALLOWED }).preflight('https://app.example.com', 'POST').headers['access-control-allow-headers']!;
    // Browsers compare the names case-insensitively; clients of draft-ietf-httpapi-idempotency-key-header send Idempotency-Key.
    expect(allowed.split(', ')).toEqual(['authorization', 'content-type', 'idempotency-key', 'x-request-id']);
  });

  it('refuses a preflight from an origin not listed with 403 (1102) and the Error body', () => {
    const response = createCorsPolicy({ origins: ALLOWED }).preflight('https://evil.example', 'POST');
    expect(response.status).toBe(403);
    expect(JSON.parse(response.body)).toEqual({ error: 1102, message: "origin: not allowed by this server's CORS settings" });
    expect(response.headers).toEqual({ 'content-type': 'application/json', vary: 'Origin' });
  });

  it('gives answers to a listed origin its origin and the exposed headers, and everyone Vary: Origin', () => {
    const cors = createCorsPolicy({ origins: ALLOWED });
    expect(cors.responseHeaders('https://app.example.com')).toEqual({
      'access-control-allow-origin': 'https://app.example.com',
      'access-control-expose-headers': CORS_EXPOSED_HEADERS,
      vary: 'Origin',
    });
    expect(cors.responseHeaders(undefined)).toEqual({ vary: 'Origin' });
    expect(cors.responseHeaders('https://APP.example.com')).toEqual({ vary: 'Origin' });
  });

  it('never gives an origin not listed Access-Control-Allow-Origin, in a preflight or an answer', () => {
    const cors = createCorsPolicy({ origins: ALLOWED, credentials: true });
    const origin = fc.oneof(
      fc.webUrl().map((url) => new URL(url).origin),
      fc.string({ unit: 'binary', maxLength: 40 }),
      fc.constantFrom('null', '*', 'https://app.example.com/', 'https://app.example.com.evil', 'https://app.example.co', 'http://app.example.com'),
    );
    fc.assert(
      fc.property(
        origin.filter((text) => !ALLOWED.includes(text)),
        fc.constantFrom('GET' as const, 'POST' as const),
        (text, method) => {
          const preflight = cors.preflight(text, method);
          expect(preflight.status).toBe(403);
          expect(preflight.headers['access-control-allow-origin']).toBeUndefined();
          expect(cors.responseHeaders(text)['access-control-allow-origin']).toBeUndefined();
        },
      ),
      { numRuns: 2000 },
    );
  });

  it("with '*', answers every origin alike with `*` and no Vary", () => {
    const cors = createCorsPolicy({ origins: '*' });
    fc.assert(
      fc.property(fc.string({ maxLength: 30 }), (origin) => {
        expect(cors.preflight(origin, 'POST').status).toBe(200);
        expect(cors.preflight(origin, 'POST').headers['access-control-allow-origin']).toBe('*');
        expect(cors.responseHeaders(origin)).toEqual({ 'access-control-allow-origin': '*', 'access-control-expose-headers': CORS_EXPOSED_HEADERS });
      }),
    );
    expect(cors.preflight('x', 'GET').headers['access-control-max-age']).toBe('600');
    expect(cors.preflight('x', 'GET').headers['vary']).toBeUndefined();
  });

  it('compares origins as browsers send them: lowercase, without the default port', () => {
    const cors = createCorsPolicy({ origins: ['HTTPS://App.Example.com:443', 'http://[::1]:080', 'http://127.0.0.1:80', 'http://localhost:08080'] });
    for (const origin of ['https://app.example.com', 'http://[::1]', 'http://127.0.0.1', 'http://localhost:8080'])
      expect(cors.preflight(origin, 'POST').status, origin).toBe(200);
    expect(cors.preflight('https://app.example.com:443', 'POST').status).toBe(403);
  });

  it('refuses invalid options at construction, naming the fault', () => {
    const refused: [unknown, RegExp][] = [
      [{ origins: '*', credentials: true }, /cannot be combined/],
      [{ origins: [] }, /non-empty list/],
      [{ origins: 'https://app.example.com' }, /non-empty list/],
      [{ origins: ['https://app.example.com/'] }, /origins\[0\].*no path/],
      [{ origins: ['https://app.example.com/path'] }, /no path/],
      [{ origins: ['app.example.com'] }, /scheme:\/\/host/],
      [{ origins: ['https://*.example.com'] }, /origins\[0\]/],
      [{ origins: ['https://user@app.example.com'] }, /origins\[0\]/],
      [{ origins: ['https://app.example.com?x'] }, /origins\[0\]/],
      [{ origins: ['null'] }, /origins\[0\]/],
      [{ origins: [42] }, /origins\[0\]/],
      [{ origins: ['https://a.example:65536'] }, /port/],
      [{ origins: ALLOWED, maxAgeSeconds: -1 }, /maxAgeSeconds/],
      [{ origins: ALLOWED, maxAgeSeconds: 1.5 }, /maxAgeSeconds/],
      [{ origins: ALLOWED, maxAgeSeconds: 86_401 }, /maxAgeSeconds/],
      [{ origins: ALLOWED, credentials: 'yes' }, /credentials/],
      [null, /object/],
    ];
    for (const [options, message] of refused) expect(() => createCorsPolicy(options as never), JSON.stringify(options)).toThrow(message);
  });
});
