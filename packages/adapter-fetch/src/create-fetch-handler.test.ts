import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { conformanceOptions, describeHttpConformance } from '@plant-store/testing';
import { createMemoryStore } from '@plant-store/store-memory';
import { createNodeServerAdapter } from './create-node-server-adapter.ts';

describeHttpConformance({
  name: 'adapter-fetch through @whatwg-node/server on node:http',
  unmatched: 'not-found',
  async start(scenario) {
    const server = createServer(createNodeServerAdapter({ ...conformanceOptions(scenario, createMemoryStore()), onError: () => {} }));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    return {
      baseUrl: `http://127.0.0.1:${port}`,
      close: () =>
        new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeAllConnections();
        }),
    };
  },
});
