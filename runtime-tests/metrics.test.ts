// Runs in the test process (Node): a real Prometheus, configured by docs/snippets/prometheus.yml,
// scrapes the standalone server on Node, Bun, Deno and workerd at once, and its query API
// must count exactly the creates each was sent; promtool accepts each exposition. Skips, with
// how to install it, where Debian's Prometheus is missing (scripts/ensure-prometheus.mjs
// installs it as root).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CONFORMANCE_TOKEN, send } from '@plant-store/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runtime, spawnServer, type SpawnedServer } from './runtimes.ts';
import { until } from './support/until.ts';
import { findPrometheus, INSTALL_PROMETHEUS, startPrometheus, type TestPrometheus } from './support/prometheus.mjs';

const SNIPPET = readFileSync(fileURLToPath(new URL('../docs/snippets/prometheus.yml', import.meta.url)), 'utf8');
// Node 22, for its SQLite: the group commits are then counted too.
const TARGETS = ['Node 22', 'Bun', 'Deno', 'workerd'].map(runtime);
const HEADERS = { authorization: `Bearer ${CONFORMANCE_TOKEN}`, 'content-type': 'application/json' };

const binaries = findPrometheus();
if (binaries === undefined) console.warn(`metrics.test.ts: skipped, no Prometheus: ${INSTALL_PROMETHEUS}`);

/** The snippet's scrape job, once per server, each named after its runtime, scraped every 500 ms with the token from `tokenFile`. */
function scrapeConfig(servers: ReadonlyMap<string, SpawnedServer>, tokenFile: string): string {
  const [head, job] = SNIPPET.split('scrape_configs:\n') as [string, string];
  const jobs = [...servers].map(([name, server]) =>
    job
      .replace('job_name: plant-store', `job_name: ${JSON.stringify(name)}`)
      .replace('/etc/prometheus/plant-store-token', tokenFile)
      .replace("'127.0.0.1:8080'", `'${new URL(server.baseUrl).host}'`),
  );
  expect(jobs.every((text, i) => text !== job && text.includes(new URL([...servers.values()][i]!.baseUrl).host))).toBe(true);
  return `${head.replace('scrape_interval: 15s', 'scrape_interval: 500ms')}scrape_configs:\n${jobs.join('')}`;
}

/**
 * The known sequence: a PUT (405, which workerd's front answers itself), a HEAD of the metrics (which workerd's front
 * asks of the Worker as GET, to add its counts), then creates: inserted, replayed, conflict, 400 (invalid JSON), 401
 * (no token), 413 (past 1 MiB).
 */
async function sendSequence(baseUrl: string): Promise<number[]> {
  const create = (body: string, headers: Record<string, string> = HEADERS) => send(baseUrl, { path: '/plants', headers, body }).then((answer) => answer.status);
  return [
    (await send(baseUrl, { method: 'PUT', path: '/plants', headers: HEADERS, body: '{}' })).status,
    (await send(baseUrl, { method: 'HEAD', path: '/metrics', headers: HEADERS })).status,
    await create('{"id":1,"name":"Fern"}'),
    await create('{"id":1,"name":"Fern"}'),
    await create('{"id":1,"name":"Moss"}'),
    await create('{"id":'),
    await create('{"id":2,"name":"Fern"}', { 'content-type': 'application/json' }),
    await create(`{"id":3,"name":"${'x'.repeat(1024 * 1024)}"}`),
  ];
}

describe.skipIf(binaries === undefined)('Prometheus scraping the standalone server (docs/snippets/prometheus.yml)', () => {
  const servers = new Map<string, SpawnedServer>();
  let prometheus: TestPrometheus | undefined;
  const dir = mkdtempSync(join(tmpdir(), 'plant-store-metrics-'));

  beforeAll(async () => {
    const started = await Promise.allSettled(TARGETS.map((target) => spawnServer(target, 'working', { PLANT_STORE_ACCESS_LOG: 'off' })));
    started.forEach((result, i) => {
      if (result.status === 'fulfilled') servers.set(TARGETS[i]!.name, result.value);
    });
    const failed = started.find((result) => result.status === 'rejected');
    if (failed !== undefined) throw failed.reason;
    const tokenFile = join(dir, 'token');
    writeFileSync(tokenFile, CONFORMANCE_TOKEN, { mode: 0o600 });
    prometheus = await startPrometheus(binaries!.prometheus, scrapeConfig(servers, tokenFile));
  }, 60_000);

  afterAll(async () => {
    await Promise.all([prometheus?.close(), ...[...servers.values()].map((server) => server.close())]);
    rmSync(dir, { recursive: true, force: true });
  });

  it('counts exactly the creates each runtime was sent, by outcome and error code, and their durations by route, method and status', async () => {
    const statuses = await Promise.all([...servers.values()].map((server) => sendSequence(server.baseUrl)));
    for (const seen of statuses) expect(seen).toEqual([405, 200, 200, 200, 409, 400, 401, 413]);
    const expected = {
      'conflict 1300': 1,
      'inserted ': 1,
      'refused 1001': 1,
      'refused 1100': 1,
      'refused 1400': 1,
      'replayed ': 1,
    };
    // Sorted by series, so that the same counts compare equal as text, whatever order Prometheus answers in.
    const counted = async (job: string) =>
      Object.fromEntries(
        (await prometheus!.query(`plant_store_creates_total{job=${JSON.stringify(job)}}`))
          .map(({ metric, value }) => [`${metric['outcome']} ${metric['error_code'] ?? ''}`, Number(value[1])] as const)
          .sort(([a], [b]) => (a < b ? -1 : 1)),
      );
    const durations = async (job: string, method = 'POST') =>
      Object.fromEntries(
        (
          await prometheus!.query(`http_server_request_duration_seconds_count{job=${JSON.stringify(job)},http_route="/plants",http_request_method="${method}"}`)
        ).map(({ metric, value }) => [metric['http_response_status_code'], Number(value[1])]),
      );
    for (const job of servers.keys()) {
      // Until a scrape after the last request: the counters only grow, so the first match is final.
      let seen: Record<string, number> = {};
      await until(async () => JSON.stringify((seen = await counted(job))) === JSON.stringify(expected), 20_000, `${job}: Prometheus sees the creates`).catch(
        (error: Error) => {
          throw new Error(`${error.message}; last seen ${JSON.stringify(seen)}\n${prometheus!.output()}`);
        },
      );
      expect(await durations(job)).toEqual({ '200': 2, '409': 1, '400': 1, '401': 1, '413': 1 });
      expect(await durations(job, 'PUT'), job).toEqual({ '405': 1 });
      const heads = await prometheus!.query(
        `http_server_request_duration_seconds_count{job=${JSON.stringify(job)},http_route="/metrics",http_request_method="HEAD"}`,
      );
      expect(
        heads.map(({ value }) => value[1]),
        job,
      ).toEqual(['1']);
      expect((await prometheus!.query(`up{job=${JSON.stringify(job)}}`)).map(({ value }) => value[1])).toEqual(['1']);
      expect((await prometheus!.query(`plant_store_draining{job=${JSON.stringify(job)}}`)).map(({ value }) => value[1])).toEqual(['0']);
    }
    // The SQLite store of Node, Bun and Deno commits in groups: the three creates that reached it,
    // sent one after the other, were three commits of one each. workerd's D1 store reports none.
    for (const job of ['Node 22', 'Bun', 'Deno']) {
      for (const part of ['count', 'sum']) {
        const commits = await prometheus!.query(`plant_store_group_commit_size_${part}{job=${JSON.stringify(job)}}`);
        expect(
          commits.map(({ value }) => Number(value[1])),
          `${job} ${part}`,
        ).toEqual([3]);
      }
      const cpu = await prometheus!.query(`process_cpu_seconds_total{job=${JSON.stringify(job)}}`);
      expect(cpu.length, job).toBe(1);
    }
  }, 60_000);

  it('serves an exposition promtool accepts, only to a bearer of an accepted token', async () => {
    for (const [name, server] of servers) {
      expect((await send(server.baseUrl, { method: 'GET', path: '/metrics' })).status, name).toBe(401);
      const scraped = await send(server.baseUrl, { method: 'GET', path: '/metrics', headers: { authorization: `Bearer ${CONFORMANCE_TOKEN}` } });
      expect(scraped.status, name).toBe(200);
      expect(scraped.headers['content-type'], name).toBe('text/plain; version=0.0.4; charset=utf-8');
      const checked = spawnSync(binaries!.promtool, ['check', 'metrics'], { input: scraped.body, encoding: 'utf8', timeout: 10_000 });
      expect({ name, status: checked.status, output: `${checked.stdout}${checked.stderr}` }).toEqual({ name, status: 0, output: '' });
    }
  });
});
