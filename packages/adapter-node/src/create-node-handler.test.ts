import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { conformanceOptions, describeHttpConformance, type RunningTarget } from '@plant-store/testing';
import { createMemoryStore } from '@plant-store/store-memory';
import express from 'express';
import { createNodeHandler } from './create-node-handler.ts';

async function listen(server: Server, path = ''): Promise<RunningTarget> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}${path}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const quiet = { onError: () => {} };

describeHttpConformance({
  name: 'adapter-node mounted in node:http',
  unmatched: 'host',
  start(scenario) {
    const handler = createNodeHandler({ ...conformanceOptions(scenario, createMemoryStore()), ...quiet });
    return listen(
      createServer((req, res) =>
        handler(req, res, () => {
          res.statusCode = 418;
          res.end('host');
        }),
      ),
    );
  },
});

describeHttpConformance({
  name: 'adapter-node mounted in Express under /api',
  unmatched: 'host',
  start(scenario) {
    const app = express();
    app.use('/api', createNodeHandler({ ...conformanceOptions(scenario, createMemoryStore()), ...quiet }));
    app.use((_req, res) => {
      res.status(418).send('host');
    });
    return listen(createServer(app), '/api');
  },
});

describeHttpConformance({
  name: 'adapter-node with basePath /v1 in node:http',
  unmatched: 'not-found',
  start(scenario) {
    return listen(createServer(createNodeHandler({ ...conformanceOptions(scenario, createMemoryStore()), ...quiet, basePath: '/v1' })), '/v1');
  },
});
