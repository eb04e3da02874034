// Runs in the test process (Node): an identity provider of its own on 127.0.0.1, publishing a JWKS and minting tokens with jose.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT, type JWK, type JWTPayload } from 'jose';

/** An issuer on 127.0.0.1: its keys at `/.well-known/jwks.json`, counted. */
export interface LocalIssuer {
  /** The issuer's URL (`iss`), with a trailing slash as Auth0 writes it. */
  readonly url: string;
  /** Where its keys are published. */
  readonly jwksUrl: string;
  /** How many JWKS requests it has received. */
  readonly fetches: number;
  /** Makes a key pair (`alg`, default RS256), publishes its public half under `kid`, and returns `kid`. */
  addKey(kid: string, alg?: 'RS256' | 'ES256'): Promise<string>;
  /** The public JWK published under `kid`. */
  publicJwk(kid: string): JWK;
  /** A token with `claims`, signed by the key `kid` (which need not be published: `signWith` picks the key). */
  sign(claims: JWTPayload, header: { kid: string; signWith?: string }): Promise<string>;
  /** Holds every JWKS request unanswered while true, as an issuer that does not answer in time. */
  hang: boolean;
  /** When set, the keys published instead of those of {@link addKey}: any key set a test needs (no `kid`, a `kid` twice). */
  published: readonly JWK[] | undefined;
  /** Stops answering: the port is closed and open connections dropped. */
  stop(): Promise<void>;
}

/** Starts a {@link LocalIssuer} on a free port of 127.0.0.1. */
export async function startLocalIssuer(): Promise<LocalIssuer> {
  const keys = new Map<string, { alg: string; privateKey: CryptoKey; jwk: JWK }>();
  let fetches = 0;
  const held = new Set<() => void>();
  const server: Server = createServer((request, response) => {
    if (request.url !== '/.well-known/jwks.json') {
      response.writeHead(404).end();
      return;
    }
    fetches++;
    const answer = () => {
      response
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ keys: issuer.published ?? [...keys.values()].map(({ jwk }) => jwk) }));
    };
    if (issuer.hang) held.add(answer);
    else answer();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  const issuer: LocalIssuer = {
    url: base,
    jwksUrl: `${base}.well-known/jwks.json`,
    get fetches() {
      return fetches;
    },
    hang: false,
    published: undefined,
    async addKey(kid, alg = 'RS256') {
      const pair = await generateKeyPair(alg, { extractable: true });
      keys.set(kid, { alg, privateKey: pair.privateKey, jwk: { ...(await exportJWK(pair.publicKey)), kid, alg, use: 'sig' } });
      return kid;
    },
    publicJwk(kid) {
      return keys.get(kid)!.jwk;
    },
    sign(claims, { kid, signWith = kid }) {
      const key = keys.get(signWith)!;
      return new SignJWT(claims).setProtectedHeader({ alg: key.alg, kid, typ: 'JWT' }).sign(key.privateKey);
    },
    async stop() {
      held.clear();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
  return issuer;
}
