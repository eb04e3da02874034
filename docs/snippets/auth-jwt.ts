// server.ts: `node server.ts` on Node 22.18+, `npx tsx server.ts` on Node 20
import { createServer } from 'node:http';
import { createNodeHandler } from '@plant-store/adapter-node';
import { jwtAuthenticate } from '@plant-store/auth-jwt';
import { createMemoryStore } from '@plant-store/store-memory';

// An Auth0 tenant: the issuer is the tenant's URL, the audience the API's identifier there.
const authenticate = jwtAuthenticate({
  issuer: 'https://plants-example.eu.auth0.com/',
  audience: 'https://plants.example.com',
  jwksUrl: 'https://plants-example.eu.auth0.com/.well-known/jwks.json',
  requiredScope: 'plants:write', // optional: without it in `scope` or `scp`, 403 (1103)
  clockToleranceSeconds: 30, // default
  jwksCooldownSeconds: 30, // default: at most one JWKS fetch per 30 s, whatever kids arrive
});

const plants = createNodeHandler({ store: createMemoryStore(), authenticate });
createServer((req, res) => plants(req, res, () => res.writeHead(404).end())).listen(8080, '127.0.0.1');
