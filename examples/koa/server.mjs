// Plant Store in a Koa app: POST /api/plants and GET /api/openapi.json.
import Koa from 'koa';
import { staticTokens } from '@plant-store/core';
import { createNodeHandler } from '@plant-store/adapter-node';
import { createMemoryStore } from '@plant-store/store-memory';

const plants = createNodeHandler({
  basePath: '/api',
  store: createMemoryStore(),
  // No default token: with PLANT_TOKEN unset, staticTokens refuses the empty one and the start stops.
  authenticate: staticTokens([process.env.PLANT_TOKEN ?? '']),
});

const app = new Koa();
// Plant Store writes its answer on ctx.res itself, so Koa must write nothing
// (respond = false), and the middleware ends once that answer is out, so the
// middleware above it sees its status. Other paths go on down the stack.
app.use(
  (ctx, next) =>
    new Promise((resolve) => {
      ctx.respond = false;
      ctx.res.once('close', resolve);
      plants(ctx.req, ctx.res, () => {
        ctx.res.off('close', resolve);
        ctx.respond = true;
        resolve(next());
      });
    }),
);
app.use((ctx) => {
  ctx.body = 'the rest of your app\n';
});

const server = app.listen(Number(process.env.PORT ?? 3000), '127.0.0.1', () => {
  console.log(`listening on http://127.0.0.1:${/** @type {import('node:net').AddressInfo} */ (server.address()).port}`);
});
