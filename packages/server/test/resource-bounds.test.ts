// Runs under vitest on Node.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { Agent } from 'node:http';
import { fileURLToPath } from 'node:url';
import { send } from '@plant-store/testing';
import { describe, expect, it } from 'vitest';

const CLI = fileURLToPath(new URL('../dist/bin/node.js', import.meta.url));
/** README, "Limits and security": at most the store's 256 MiB budget on top of a 128 MiB process. */
const DOCUMENTED_PEAK_RSS_BYTES = (256 + 128) * 1024 * 1024;

function peakRss(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmHWM:\s+(\d+) kB/.exec(status)![1]) * 1024;
}

describe('resource bounds of the standalone server with the default memory store', () => {
  it('fills up with maximum-size creates, answers 507 (1502) from then on, stays within its memory bound and keeps serving', async () => {
    const child = spawn(process.execPath, [CLI], {
      // The memory store, whatever the runtime's default (SQLite where the runtime has it).
      env: { PATH: process.env['PATH'] ?? '', PORT: '0', PLANT_STORE_TOKENS: 't', PLANT_STORE_ACCESS_LOG: 'off', PLANT_STORE_DATABASE_URL: 'memory:' },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const agent = new Agent({ keepAlive: true, maxSockets: 4 });
    try {
      const url = await new Promise<string>((resolve) => {
        let out = '';
        child.stdout!.on('data', (chunk: Buffer) => {
          out += chunk.toString();
          const match = /listening on (\S+)/.exec(out);
          if (match) resolve(match[1]!);
        });
      });
      const headers = { authorization: 'Bearer t', 'content-type': 'application/json' };
      const body = (id: number) => {
        const prefix = `{"id":${id},"name":"`;
        return `${prefix}${'x'.repeat((1 << 20) - prefix.length - 2)}"}`;
      };
      let created = 0;
      let id = 0;
      let status = 200;
      while (status === 200 && id < 1_000) {
        const batch = await Promise.all([0, 1, 2, 3].map(() => send(url, { path: '/plants', headers, body: body(++id), agent })));
        for (const response of batch) {
          if (response.status === 200) created++;
          else status = response.status;
        }
      }
      expect(status).toBe(507);
      for (let i = 0; i < 20; i++) {
        const response = await send(url, { path: '/plants', headers, body: body(++id), agent });
        expect(JSON.parse(response.body)).toMatchObject({ error: 1502 });
      }
      expect((await send(url, { path: '/plants', headers, body: '{"id":1,"name":"x"}', agent })).status).toBe(409);
      expect((await send(url, { method: 'GET', path: '/openapi.json', agent })).status).toBe(200);
      const peak = peakRss(child.pid!);
      console.log(`stored ${created} plants of 1 MiB before 507; peak RSS ${(peak / 2 ** 20).toFixed(0)} MiB`);
      expect(created).toBeGreaterThan(100);
      expect(peak).toBeLessThan(DOCUMENTED_PEAK_RSS_BYTES);
    } finally {
      agent.destroy();
      child.kill('SIGKILL');
    }
  });
});
