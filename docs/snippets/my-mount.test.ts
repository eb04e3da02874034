import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createNodeHandler } from '@plant-store/adapter-node';
import { conformanceOptions, describeHttpConformance } from '@plant-store/testing';
import { createMyStore } from './my-store.js';

describeHttpConformance({
  name: 'my app',
  unmatched: 'host', // unknown paths reach my app, which answers them with 418 "host"
  async start(scenario) {
    const plants = createNodeHandler(conformanceOptions(scenario, createMyStore()));
    const server = createServer((req, res) => plants(req, res, () => res.writeHead(418).end('host')));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    return {
      baseUrl: `http://127.0.0.1:${port}`,
      close: () => new Promise<void>((resolve) => server.close(() => resolve()).closeAllConnections()),
    };
  },
});
