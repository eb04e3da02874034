// Runs in vitest on Node: unit tests of auth-refusal-response.ts.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { authRefusalResponse } from './auth-refusal-response.ts';
import { createPlantHandler } from '../create-plant-handler.ts';
import { createOpenApiDocument } from '../openapi-document.ts';

const bodyCode = (body: string) => (JSON.parse(body) as { error: number }).error;
// RFC 7230 field-value: visible ASCII, spaces and tabs; nothing that could end a header.
const FIELD_VALUE = /^[\x20-\x7e\t]*$/;

describe('authRefusalResponse', () => {
  it('answers 403 (1103) with an insufficient_scope challenge naming the scope', () => {
    const answer = authRefusalResponse({ refused: 'insufficient-scope', scope: 'plants:write' });
    expect(answer.status).toBe(403);
    expect(bodyCode(answer.body as string)).toBe(1103);
    expect(answer.headers['www-authenticate']).toBe('Bearer realm="plant-store", error="insufficient_scope", scope="plants:write"');
  });

  it('answers 503 (1104) with Retry-After in whole seconds from 1 to 3600', () => {
    const seconds = (retryAfterSeconds: number) => authRefusalResponse({ refused: 'unavailable', retryAfterSeconds }).headers['retry-after'];
    expect(authRefusalResponse({ refused: 'unavailable', retryAfterSeconds: 5 }).status).toBe(503);
    expect(bodyCode(authRefusalResponse({ refused: 'unavailable', retryAfterSeconds: 5 }).body as string)).toBe(1104);
    expect([seconds(5), seconds(0.2), seconds(-3), seconds(1e9), seconds(Number.NaN)]).toEqual(['5', '1', '1', '3600', '1']);
  });

  it('answers every other verdict as a rejected token (401, 1101)', () => {
    for (const verdict of [false, undefined, null, 'yes', 1, { refused: 'invalid-token' }, { refused: 'other' }, {}]) {
      const answer = authRefusalResponse(verdict);
      expect([answer.status, bodyCode(answer.body as string)]).toEqual([401, 1101]);
      expect(answer.headers['www-authenticate']).toBe('Bearer realm="plant-store", error="invalid_token"');
    }
  });

  it('never writes a header value that could break the answer, whatever scope a verifier names', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (scope) => {
        const answer = authRefusalResponse({ refused: 'insufficient-scope', scope });
        expect(answer.status).toBe(403);
        for (const value of Object.values(answer.headers)) expect(value).toMatch(FIELD_VALUE);
        expect(answer.headers['www-authenticate']!.split('"').length).toBeLessThanOrEqual(7);
      }),
    );
  });
});

describe('a refusal through the handler', () => {
  it('reaches the client with its status, and the document declares what the verifier describes', async () => {
    const authenticate = Object.assign(() => ({ refused: 'insufficient-scope', scope: 'plants:write' }) as const, {
      describes: { bearerFormat: 'JWT', refusals: ['insufficient-scope', 'unavailable'] as const },
    });
    const store = { insertIfAbsent: () => ({ ok: true, value: { inserted: true, plant: { name: 'x' } } }) } as never;
    const handler = createPlantHandler({ store, authenticate });
    const answer = await handler({
      method: 'POST',
      url: '/plants',
      header: (name: string) => (name === 'authorization' ? 'Bearer abc' : undefined),
      readBody: () => ({ ok: true, bytes: new Uint8Array() }),
    } as never);
    expect(answer.status).toBe(403);
    const document = createOpenApiDocument('/', { verifier: authenticate.describes }) as never as {
      components: { securitySchemes: { bearerAuth: unknown }; responses: Record<string, { description: string }> };
      paths: { '/plants': { post: { responses: Record<string, unknown> } } };
    };
    expect(document.components.securitySchemes.bearerAuth).toEqual({ type: 'http', scheme: 'bearer', bearerFormat: 'JWT' });
    expect(Object.keys(document.paths['/plants'].post.responses)).toEqual(expect.arrayContaining(['403', '503']));
    expect(document.components.responses['Forbidden']!.description).toContain('1103');
    const plain = createOpenApiDocument('/', {}) as never as typeof document;
    expect(plain.components.securitySchemes.bearerAuth).toEqual({ type: 'http', scheme: 'bearer' });
    expect(Object.keys(plain.paths['/plants'].post.responses)).not.toContain('403');
  });
});
