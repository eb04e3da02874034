// Runs on Node under Vitest, driving the standalone server on Node, Bun, Deno and workerd (side by side) against an issuer
// on 127.0.0.1: JWTs verified with the issuer's keys, each refusal with its code, key rotation, bounded JWKS fetches,
// and the issuer gone.
import { Agent } from 'node:http';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { send, type RawResponse } from '@plant-store/testing';
import { build } from 'esbuild';
import { SignJWT, type JWTPayload } from 'jose';
import { Miniflare } from 'miniflare';
import { afterAll, describe, expect, it } from 'vitest';
import { runtime, runToExit, spawnServer, temporaryDirectories, type SpawnedServer } from './runtimes.ts';
import { startLocalIssuer, type LocalIssuer } from './support/local-issuer.ts';
import { until } from './support/until.ts';

const AUDIENCE = 'https://plants.example.com';
const SCOPE = 'plants:write';
const RUNTIMES = ['Node 26', 'Bun', 'Deno', 'workerd'];
const FORGED_KIDS = 1000;
// Clients, and requests each, of the overlapping-fetches test.
const CLIENTS = 4;
const ROUNDS = 200;
const directory = temporaryDirectories('plant-store-jwt-');
const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  await Promise.allSettled(cleanups.map((cleanup) => cleanup()));
});

const base64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
const code = (response: RawResponse) => (JSON.parse(response.body) as { error?: number }).error;

/** A standalone server verifying JWTs of `issuer` (the JWKS may be fetched once per `cooldown` seconds at most), with the access log on. */
async function jwtServer(name: string, issuer: LocalIssuer, cooldown = '1'): Promise<SpawnedServer> {
  const server = await spawnServer(runtime(name), 'working', {
    PLANT_STORE_TOKENS: undefined,
    PLANT_STORE_ACCESS_LOG: 'on',
    PLANT_STORE_DATABASE_URL: 'memory:',
    PLANT_STORE_JWT_ISSUER: issuer.url,
    PLANT_STORE_JWT_AUDIENCE: AUDIENCE,
    PLANT_STORE_JWKS_URL: issuer.jwksUrl,
    PLANT_STORE_JWT_SCOPE: SCOPE,
    PLANT_STORE_JWKS_COOLDOWN: cooldown,
  });
  cleanups.push(() => server.close());
  return server;
}

describe.concurrent('the standalone server with PLANT_STORE_JWT_ISSUER', () => {
  for (const name of RUNTIMES) {
    it(`on ${name}: refuses to start, in one line, with PLANT_STORE_TOKENS too or without PLANT_STORE_JWKS_URL; exit 1`, async () => {
      const { binary, production } = runtime(name);
      const jwt = { PLANT_STORE_JWT_ISSUER: 'https://plants-example.eu.auth0.com/', PLANT_STORE_JWT_AUDIENCE: AUDIENCE };
      const starts = [
        { PORT: '0', PLANT_STORE_TOKENS: 't', ...jwt, PLANT_STORE_JWKS_URL: 'https://plants-example.eu.auth0.com/.well-known/jwks.json' },
        { PORT: '0', ...jwt },
      ];
      const results = await Promise.all(starts.map((env) => runToExit(binary, production, { cwd: directory(), env })));
      expect(results.map(({ code, stdout, stderr }) => ({ code, stdout, stderr }))).toEqual([
        {
          code: 1,
          stdout: '',
          stderr:
            'plant-store: PLANT_STORE_TOKENS: set together with PLANT_STORE_JWT_ISSUER, PLANT_STORE_JWT_AUDIENCE, PLANT_STORE_JWKS_URL; tokens are checked one way: unset PLANT_STORE_TOKENS to verify JWTs, or unset PLANT_STORE_JWT_ISSUER, PLANT_STORE_JWT_AUDIENCE, PLANT_STORE_JWKS_URL to accept fixed tokens\n',
        },
        {
          code: 1,
          stdout: '',
          stderr:
            'plant-store: PLANT_STORE_JWKS_URL: not set; PLANT_STORE_JWT_ISSUER, PLANT_STORE_JWT_AUDIENCE, PLANT_STORE_JWKS_URL go together to verify JWTs (set PLANT_STORE_JWT_ISSUER, PLANT_STORE_JWT_AUDIENCE)\n',
        },
      ]);
    });

    it(`on ${name}: accepts the issuer's tokens, refuses the rest with their codes, follows a key rotation, bounds JWKS fetches and outlives the issuer`, async () => {
      const issuer = await startLocalIssuer();
      cleanups.push(() => issuer.stop());
      await issuer.addKey('k1');
      // An issuer that never answered: its port closed before the server starts.
      const gone = await startLocalIssuer();
      await gone.stop();
      const [server, orphan] = await Promise.all([jwtServer(name, issuer), jwtServer(name, gone)]);
      expect(server.output()).toContain(
        `plant-store: bearer tokens are JWTs from ${issuer.url} for ${AUDIENCE}, keys from ${issuer.jwksUrl}, scope ${SCOPE} required`,
      );

      const agent = new Agent({ keepAlive: true, maxSockets: 16 });
      cleanups.push(async () => agent.destroy());
      let id = 1;
      const sent: string[] = [];
      const create = (token: string, target = server) => {
        sent.push(token);
        const body = `{"id":${id++},"name":"Fern"}`;
        return send(target.baseUrl, { path: '/plants', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body, agent });
      };
      const now = Math.floor(Date.now() / 1000);
      const claims: JWTPayload = { iss: issuer.url, aud: AUDIENCE, sub: 'user-1', exp: now + 600, iat: now, scope: `openid ${SCOPE}` };

      // Nothing cached and the issuer unreachable: the client is told to retry, not that its token is bad.
      const retry = await create(await issuer.sign(claims, { kid: 'k1' }), orphan);
      expect([retry.status, code(retry)]).toEqual([503, 1104]);
      expect(Number(retry.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      await orphan.close();

      const valid = await issuer.sign(claims, { kid: 'k1' });
      expect((await create(valid)).status).toBe(200);

      const document = JSON.parse((await send(server.baseUrl, { method: 'GET', path: '/openapi.json', agent })).body) as {
        components: { securitySchemes: Record<string, unknown> };
        paths: { '/plants': { post: { responses: Record<string, unknown> } } };
      };
      expect(document.components.securitySchemes['bearerAuth']).toEqual({ type: 'http', scheme: 'bearer', bearerFormat: 'JWT' });
      expect(Object.keys(document.paths['/plants'].post.responses)).toEqual(expect.arrayContaining(['401', '403', '503']));

      const [header, payload, signature] = valid.split('.');
      const hmacWithPublicKey = await new SignJWT(claims)
        .setProtectedHeader({ alg: 'HS256', kid: 'k1' })
        .sign(new TextEncoder().encode(JSON.stringify(issuer.publicJwk('k1'))));
      const refused: Record<string, string> = {
        expired: await issuer.sign({ ...claims, exp: now - 120 }, { kid: 'k1' }),
        'not yet valid': await issuer.sign({ ...claims, nbf: now + 120 }, { kid: 'k1' }),
        'wrong issuer': await issuer.sign({ ...claims, iss: 'https://other.example/' }, { kid: 'k1' }),
        'wrong audience': await issuer.sign({ ...claims, aud: 'https://other.example' }, { kid: 'k1' }),
        'tampered payload': `${header}.${base64url({ ...claims, sub: 'admin' })}.${signature}`,
        'alg none': `${base64url({ alg: 'none', kid: 'k1' })}.${payload}.`,
        'HS256 signed with the public key': hmacWithPublicKey,
        'a kid the JWKS does not have': await issuer.sign(claims, { kid: 'k-unknown', signWith: 'k1' }),
        'no exp': await issuer.sign({ iss: claims.iss!, aud: AUDIENCE, scope: SCOPE }, { kid: 'k1' }),
      };
      for (const [what, token] of Object.entries(refused)) {
        const answer = await create(token);
        expect([what, answer.status, code(answer)]).toEqual([what, 401, 1101]);
        expect(answer.headers['www-authenticate'], what).toBe('Bearer realm="plant-store", error="invalid_token"');
      }
      const noScope = await create(await issuer.sign({ ...claims, scope: 'openid plants:read' }, { kid: 'k1' }));
      expect([noScope.status, code(noScope)]).toEqual([403, 1103]);
      expect(noScope.headers['www-authenticate']).toBe(`Bearer realm="plant-store", error="insufficient_scope", scope="${SCOPE}"`);

      // Rotation: the issuer publishes a new key and signs with it; the server takes it without a restart.
      await issuer.addKey('k2', 'ES256');
      const rotated = await issuer.sign(claims, { kid: 'k2' });
      await until(async () => (await create(rotated)).status === 200, 15_000, `${name}: a token of the rotated key accepted`);

      // A flood of forged kids: each one unknown, each a reason to refetch, yet the issuer sees about one fetch a second.
      const forged = await Promise.all(
        Array.from({ length: FORGED_KIDS }, (_, index) => issuer.sign(claims, { kid: `forged-${index}-${Math.random()}`, signWith: 'k2' })),
      );
      const fetchesBefore = issuer.fetches;
      const began = Date.now();
      const statuses = new Map<number, number>();
      const queue = [...forged];
      await Promise.all(
        Array.from({ length: 16 }, async () => {
          for (let token = queue.pop(); token !== undefined; token = queue.pop()) {
            const { status } = await create(token);
            statuses.set(status, (statuses.get(status) ?? 0) + 1);
          }
        }),
      );
      const seconds = (Date.now() - began) / 1000;
      const fetches = issuer.fetches - fetchesBefore;
      expect([...statuses]).toEqual([[401, FORGED_KIDS]]);
      // One fetch per cooldown (1 s) that the flood spans, and one already due when it began.
      expect(fetches, `${fetches} JWKS fetches for ${FORGED_KIDS} forged kids in ${seconds.toFixed(1)} s`).toBeLessThanOrEqual(Math.ceil(seconds) + 1);

      // The issuer stops: tokens of a cached key still work; a kid that needs the issuer gets the retry answer.
      await issuer.stop();
      expect((await create(rotated)).status).toBe(200);
      const needsIssuer = await issuer.sign(claims, { kid: 'k-after-stop', signWith: 'k2' });
      let answer: RawResponse | undefined;
      await until(async () => (answer = await create(needsIssuer)).status === 503, 15_000, `${name}: 503 for an unknown kid with the issuer down`);
      expect(code(answer!)).toBe(1104);
      expect(Number(answer!.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      expect((await create(rotated)).status).toBe(200);

      // No token, nor its payload or signature, reached the log.
      const output = server.output();
      expect(output).toContain('POST /plants 401');
      for (const token of new Set(sent)) for (const part of token.split('.').filter((part) => part.length > 8)) expect(output).not.toContain(part);
    });

    it(`on ${name}: with PLANT_STORE_JWKS_COOLDOWN=0, answers every token from the first request on while fetches of the keys overlap, none with a 500`, async () => {
      const issuer = await startLocalIssuer();
      cleanups.push(() => issuer.stop());
      await issuer.addKey('k1');
      const server = await jwtServer(name, issuer, '0');
      const agent = new Agent({ keepAlive: true, maxSockets: CLIENTS });
      cleanups.push(async () => agent.destroy());
      const now = Math.floor(Date.now() / 1000);
      const claims: JWTPayload = { iss: issuer.url, aud: AUDIENCE, exp: now + 600, scope: SCOPE };
      const tokens = { valid: await issuer.sign(claims, { kid: 'k1' }), 'unknown kid': await issuer.sign(claims, { kid: 'k-unknown', signWith: 'k1' }) };
      // The first requests all wait on the first fetch; then each unknown kid starts a fetch or waits on the one running
      // (on workerd before requests stopped waiting on each other's fetches, the first 500 came after 414 to 435 of them).
      let id = 1;
      const answers = new Map<string, number>();
      await Promise.all(
        Array.from({ length: CLIENTS }, async (_, client) => {
          for (let round = 0; round < ROUNDS; round++) {
            const kind = round === 0 ? 'valid' : 'unknown kid';
            const body = `{"id":${id++},"name":"Fern"}`;
            const headers = { authorization: `Bearer ${tokens[kind]}`, 'content-type': 'application/json' };
            const answer = await send(server.baseUrl, { path: '/plants', headers, body, agent });
            const seen = `${kind}: ${answer.status} ${answer.status === 200 ? '' : code(answer)}`;
            answers.set(seen, (answers.get(seen) ?? 0) + 1);
          }
        }),
      );
      expect(Object.fromEntries(answers)).toEqual({ 'valid: 200 ': CLIENTS, 'unknown kid: 401 1101': CLIENTS * (ROUNDS - 1) });
      expect(issuer.fetches).toBeGreaterThan(1);
    });
  }
});

describe('@plant-store/auth-jwt in a Worker of its own (workerd, where I/O belongs to the request that started it)', () => {
  it('refetches keys past their age for the request that finds them so: a new key accepted, a key that left refused, a remembered token too', async () => {
    const issuer = await startLocalIssuer();
    cleanups.push(() => issuer.stop());
    await issuer.addKey('k1');
    // Inside the project: workerd refuses module paths that climb out of the working directory.
    const outdir = fileURLToPath(new URL('./dist/', import.meta.url));
    await build({
      entryPoints: [fileURLToPath(new URL('./fixtures/jwt-worker.ts', import.meta.url))],
      bundle: true,
      format: 'esm',
      platform: 'neutral',
      outfile: join(outdir, 'jwt-worker.js'),
      logLevel: 'silent',
    });
    const miniflare = new Miniflare({
      modules: true,
      scriptPath: join(outdir, 'jwt-worker.js'),
      compatibilityDate: '2026-07-01',
      bindings: { ISSUER: issuer.url, JWKS_URL: issuer.jwksUrl, AUDIENCE },
      host: '127.0.0.1',
      port: 0,
    });
    cleanups.push(() => miniflare.dispose());
    const { origin } = await miniflare.ready;
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    cleanups.push(async () => agent.destroy());
    let id = 1;
    const create = async (token: string) => {
      const body = `{"id":${id++},"name":"Fern"}`;
      const answer = await send(origin, { path: '/plants', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body, agent });
      return `${answer.status} ${answer.status === 200 ? '' : code(answer)}`;
    };
    const now = Math.floor(Date.now() / 1000);
    const claims: JWTPayload = { iss: issuer.url, aud: AUDIENCE, exp: now + 600 };
    const first = await issuer.sign(claims, { kid: 'k1' });
    // Verified, then remembered: the second answer comes from memory once the keys are fetched again.
    expect([await create(first), await create(first)]).toEqual(['200 ', '200 ']);
    await issuer.addKey('k2');
    expect(await create(await issuer.sign(claims, { kid: 'k2' })), 'a key published since').toBe('200 ');
    issuer.published = [issuer.publicJwk('k2')];
    expect(await create(first), 'a remembered token whose key has left').toBe('401 1101');
    expect(issuer.fetches, 'a fetch at each request at least').toBeGreaterThanOrEqual(4);
  });
});
