// Runs in vitest on Node 24: each standalone server whose standard output is closed by its reader (EPIPE, as behind
// `plant-store | head -1` or a log shipper that died) while its access log is on.
import { CONFORMANCE_TOKEN, send } from '@plant-store/testing';
import { describe, expect, it } from 'vitest';
import { runtime, spawnServer } from './runtimes.ts';

const headers = { authorization: `Bearer ${CONFORMANCE_TOKEN}`, 'content-type': 'application/json' };

describe.concurrent('a standalone server whose standard output is closed', () => {
  it.each(['Node 24', 'Bun', 'Deno', 'workerd'])('%s serves on, says so once on standard error, and exits 0 on SIGTERM', async (name) => {
    const server = await spawnServer(runtime(name), 'working', {
      PLANT_STORE_ACCESS_LOG: 'on',
      PLANT_STORE_DATABASE_URL: name === 'workerd' ? undefined : 'memory:',
    });
    // The read end goes: the server's next write to standard output fails with EPIPE.
    server.child.stdout!.destroy();
    const statuses: number[] = [];
    for (let id = 1; id <= 20; id++) {
      statuses.push((await send(server.baseUrl, { path: '/plants', headers, body: `{"id":${id},"name":"Logged"}` })).status);
      statuses.push((await send(server.baseUrl, { path: '/nowhere' })).status);
    }
    expect(statuses).toEqual(Array.from({ length: 20 }, () => [200, 404]).flat());
    // Every create is kept: the same again replays.
    expect((await send(server.baseUrl, { path: '/plants', headers, body: '{"id":20,"name":"Logged"}' })).status).toBe(200);
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
    // Bun's console ignores the failed write; the node:http servers say it once.
    const said = server
      .output()
      .split('\n')
      .filter((line) => line.startsWith('plant-store: standard output failed'));
    expect(said.length).toBeLessThanOrEqual(1);
    if (name !== 'Bun')
      expect(said).toEqual(['plant-store: standard output failed (EPIPE); the access log and other lines meant for it are dropped from now on']);
  });
});
