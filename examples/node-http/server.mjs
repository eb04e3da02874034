// Plant Store inside a plain node:http server: POST /plants is served, every
// other request falls through to the rest of the server.
import { createServer } from 'node:http';
import { staticTokens } from '@plant-store/core';
import { createNodeHandler } from '@plant-store/adapter-node';
import { createMemoryStore } from '@plant-store/store-memory';

const plants = createNodeHandler({
  store: createMemoryStore(),
  // No default token: with PLANT_TOKEN unset, staticTokens refuses the empty one and the start stops.
  authenticate: staticTokens([process.env.PLANT_TOKEN ?? '']),
});

const server = createServer((req, res) =>
  plants(req, res, () => {
    res.writeHead(200, { 'content-type': 'text/plain' }).end('the rest of your app\n');
  }),
);

server.listen(Number(process.env.PORT ?? 3000), '127.0.0.1', () => {
  console.log(`listening on http://127.0.0.1:${/** @type {import('node:net').AddressInfo} */ (server.address()).port}`);
});
