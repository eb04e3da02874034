import { request } from 'node:http';
import { CONFORMANCE_TOKEN } from '@plant-store/core/testing';
import { describe, expect, it } from 'vitest';
import { RUNTIMES, spawnServer } from './runtimes.ts';

// workerd is stopped by disposing of it; it has no graceful drain to test.
const GRACEFUL = RUNTIMES.filter((runtime) => runtime.name !== 'workerd');

describe('graceful shutdown on SIGTERM', () => {
  it.each(GRACEFUL.map((runtime) => [runtime.name, runtime] as const))('%s finishes the request in flight, then exits 0', async (_name, runtime) => {
    const server = await spawnServer(runtime, 'working');
    const url = new URL(server.baseUrl);
    const answered = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = request(
        {
          host: url.hostname,
          port: url.port,
          method: 'POST',
          path: '/plants',
          headers: { authorization: `Bearer ${CONFORMANCE_TOKEN}`, 'content-type': 'application/json', 'content-length': '26' },
        },
        (res) => {
          let body = '';
          res.on('data', (chunk: Buffer) => (body += chunk.toString()));
          res.on('end', () => resolve({ status: res.statusCode!, body }));
        },
      );
      req.on('error', reject);
      // Half the body, then the signal, then the rest: the request is in flight throughout.
      req.write('{"id":42,"na');
      setTimeout(() => {
        server.child.kill('SIGTERM');
        setTimeout(() => req.end('me":"drained"}'), 300);
      }, 200);
    });
    expect(answered).toEqual({ status: 200, body: '{"name":"drained"}' });
    expect(await server.exited).toBe(0);
  });

  it('workerd exits 0 on SIGTERM', async () => {
    const server = await spawnServer(RUNTIMES.find((runtime) => runtime.name === 'workerd')!, 'working');
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
  });
});
