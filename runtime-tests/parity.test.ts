import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createNodeServerAdapter } from '@plant-store/adapter-fetch/node';
import { createNodeHandler, serve } from '@plant-store/adapter-node';
import { CONFORMANCE_TOKEN, conformanceOptions, send, type ConformanceScenario, type RawRequest, type RunningTarget } from '@plant-store/core/testing';
import { createMemoryStore } from '@plant-store/store-memory';
import express from 'express';
import { afterAll, describe, expect, it } from 'vitest';
import { RUNTIMES, spawnServer } from './runtimes.ts';

const OK = { authorization: `Bearer ${CONFORMANCE_TOKEN}`, 'content-type': 'application/json' };
const post = (body: string | Uint8Array, headers: Record<string, string> = OK): RawRequest => ({ path: '/plants', headers, body });

/** One request per row of SPEC.md's table, plus the int64 edges; run in this order on a fresh server. */
const REQUESTS: readonly { label: string; status: number; scenario?: ConformanceScenario; request: RawRequest }[] = [
  { label: '200 create', status: 200, request: post('{"id":7,"name":"Fern","tag":"green","extra":true}') },
  { label: '200 replay', status: 200, request: post('{"id":7.0,"name":"Fern","tag":"green"}') },
  { label: '200 int64 max', status: 200, request: post('{"id":9223372036854775807,"name":"max"}') },
  { label: '200 int64 min', status: 200, request: post('{"id":-9223372036854775808,"name":"min"}') },
  { label: '200 2^60', status: 200, request: post('{"id":1152921504606846976,"name":"a"}') },
  { label: '200 2^60+1 (not 2^60)', status: 200, request: post('{"id":1152921504606846977,"name":"b"}') },
  { label: '200 duplicate keys: last wins', status: 200, request: post('{"id":8,"id":9,"name":"first","name":"last"}') },
  { label: '409 id 9 was stored as "last"', status: 409, request: post('{"id":9,"name":"first"}') },
  { label: '200 BOM ignored', status: 200, request: post(new Uint8Array([0xef, 0xbb, 0xbf, ...new TextEncoder().encode('{"id":10,"name":"bom"}')])) },
  { label: '200 lone surrogate escaped', status: 200, request: post('{"id":11,"name":"\\ud800"}') },
  { label: '1000 empty body', status: 400, request: post('') },
  { label: '1001 invalid JSON', status: 400, request: post('{"id":1,"name":}') },
  { label: '1001 invalid UTF-8', status: 400, request: post(new Uint8Array([0x7b, 0xc3, 0x28, 0x7d])) },
  { label: '1002 not an object', status: 400, request: post('[{"id":1,"name":"n"}]') },
  { label: '1003 missing id', status: 400, request: post('{"name":"n"}') },
  { label: '1004 id 2^63', status: 400, request: post('{"id":9223372036854775808,"name":"n"}') },
  { label: '1004 id "5"', status: 400, request: post('{"id":"5","name":"n"}') },
  { label: '1004 tag null', status: 400, request: post('{"id":12,"name":"n","tag":null}') },
  { label: '1100 no credentials', status: 401, request: post('{"id":13,"name":"n"}', { 'content-type': 'application/json' }) },
  { label: '1101 rejected token', status: 401, request: post('{"id":13,"name":"n"}', { ...OK, authorization: 'Bearer wrong' }) },
  { label: '1200 no such route', status: 404, request: { method: 'POST', path: '/plant', headers: OK, body: '{}' } },
  { label: '1201 GET /plants', status: 405, request: { method: 'GET', path: '/plants', headers: OK } },
  { label: '1300 conflict', status: 409, request: post('{"id":7,"name":"Fern","tag":"blue"}') },
  { label: '1400 2 MiB body', status: 413, request: post(`{"id":14,"name":"${'x'.repeat(2 << 20)}"}`, { ...OK, expect: '100-continue' }) },
  { label: '1401 text/plain', status: 415, request: post('{"id":15,"name":"n"}', { ...OK, 'content-type': 'text/plain' }) },
  { label: '1500 verifier throws', status: 500, scenario: 'authenticate-throwing', request: post('{"id":16,"name":"n"}') },
  { label: '1501 store fails', status: 503, scenario: 'store-failing', request: post('{"id":17,"name":"n"}') },
  { label: '1502 store full', status: 507, scenario: 'store-full', request: post('{"id":18,"name":"n"}') },
];

interface Target {
  readonly name: string;
  /** Mounted under a host that answers unknown paths itself. */
  readonly mounted?: boolean;
  start(scenario: ConformanceScenario): Promise<RunningTarget>;
}

async function listen(server: Server, path = ''): Promise<RunningTarget> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}${path}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

const quiet = { onError: () => {} };
const TARGETS: readonly Target[] = [
  ...RUNTIMES.map((runtime): Target => ({ name: `${runtime.name} standalone`, start: (scenario) => spawnServer(runtime, scenario) })),
  {
    name: 'adapter-node serve() in-process',
    start: async (scenario) => {
      const running = await serve({ ...conformanceOptions(scenario, createMemoryStore()), ...quiet, port: 0, accessLog: false });
      return { baseUrl: running.url, close: running.close };
    },
  },
  {
    name: 'adapter-node in Express under /api',
    mounted: true,
    start: (scenario) => {
      const app = express();
      app.use('/api', createNodeHandler({ ...conformanceOptions(scenario, createMemoryStore()), ...quiet }));
      return listen(createServer(app), '/api');
    },
  },
  {
    name: 'adapter-fetch via @whatwg-node/server',
    start: (scenario) => listen(createServer(createNodeServerAdapter({ ...conformanceOptions(scenario, createMemoryStore()), ...quiet }))),
  },
];

/** What must be identical everywhere: status, body bytes and the headers clients act on. */
type Answer = string;

const running: RunningTarget[] = [];
afterAll(async () => {
  await Promise.all(running.map((target) => target.close()));
});

async function answers(target: Target): Promise<Map<string, Answer>> {
  const servers = new Map<ConformanceScenario, RunningTarget>();
  const result = new Map<string, Answer>();
  for (const { label, scenario = 'working', request } of REQUESTS) {
    if (target.mounted && label.startsWith('1200')) continue;
    let server = servers.get(scenario);
    if (server === undefined) {
      server = await target.start(scenario);
      servers.set(scenario, server);
      running.push(server);
    }
    const response = await send(server.baseUrl, request);
    const headers = ['content-type', 'www-authenticate', 'allow'].map((name) => `${name}=${response.headers[name] ?? '-'}`).join(' ');
    result.set(label, `${response.status} ${headers} ${response.body}`);
  }
  return result;
}

describe('parity: every runtime and adapter answers byte for byte the same', () => {
  const collected = new Map<string, Map<string, Answer>>();

  it.each(TARGETS.map((target) => [target.name, target] as const))('%s answers every request of the list', async (_name, target) => {
    const result = await answers(target);
    collected.set(target.name, result);
    for (const { label, status } of REQUESTS) {
      if (result.has(label)) expect(result.get(label)!.split(' ')[0], label).toBe(String(status));
    }
  });

  it('all answers equal the Node 20 standalone server, and the table says so', () => {
    const reference = collected.get('Node 20 standalone')!;
    expect(collected.size).toBe(TARGETS.length);
    const names = [...collected.keys()];
    const rows = REQUESTS.map(({ label }) => {
      const cells = names.map((name) => {
        const answer = collected.get(name)!.get(label);
        if (answer === undefined) return 'host';
        return answer === reference.get(label) ? `= ${answer.split(' ')[0]}` : `≠ ${answer}`;
      });
      return `| ${label} | ${cells.join(' | ')} |`;
    });
    console.log([`| request | ${names.join(' | ')} |`, `|---|${names.map(() => '---').join('|')}|`, ...rows].join('\n'));
    for (const name of names) {
      for (const [label, answer] of collected.get(name)!) expect(`${name}: ${label}: ${answer}`).toBe(`${name}: ${label}: ${reference.get(label)}`);
    }
  });
});
