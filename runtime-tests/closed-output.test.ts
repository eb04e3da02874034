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

  // The test's own expect: a poll in concurrent tests needs it.
  it.for(['Node 24', 'workerd'])(
    '%s holds at most 1 MiB of lines for a reader that stops reading, drops the rest, and counts them once it reads again',
    { timeout: 60_000 },
    async (name, { expect }) => {
      const server = await spawnServer(runtime(name), 'working', {
        PLANT_STORE_ACCESS_LOG: 'on',
        PLANT_STORE_DATABASE_URL: name === 'workerd' ? undefined : 'memory:',
      });
      try {
        server.child.stdout!.pause();
        // 2,000 lines of about 8 KB: 16 MB, far past what a pipe and the bound hold.
        const path = `/${'a'.repeat(8_000)}`;
        const statuses = new Set<number>();
        for (let sent = 0; sent < 2_000; sent += 8) {
          const answers = await Promise.all(Array.from({ length: 8 }, () => send(server.baseUrl, { path })));
          for (const answer of answers) statuses.add(answer.status);
        }
        expect([...statuses]).toEqual([404]);
        server.child.stdout!.resume();
        await expect
          .poll(() => /plant-store: (\d+) writes to standard output \(access-log lines\) were dropped while it was not read/.exec(server.output())?.[1], {
            timeout: 10_000,
          })
          .toMatch(/^[1-9]\d*$/);
      } finally {
        await server.close();
      }
    },
  );
});
