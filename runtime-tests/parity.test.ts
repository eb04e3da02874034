// Runs in vitest on Node 24: every standalone runtime (own processes) and the library mounts in this process, the
// Fetch adapter on node:http through the newest and the oldest @whatwg-node/server its peer range allows.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import { bridgeFetchHandler } from '@plant-store/adapter-fetch/internal';
import { createNodeServerAdapter } from '@plant-store/adapter-fetch/node';
import { createNodeHandler } from '@plant-store/adapter-node';
import { PROTOCOL_ERRORS, type ProtocolErrorKind } from '@plant-store/core';
import { docsPage } from '@plant-store/docs-page';
import { serve } from '@plant-store/server';
import { CONFORMANCE_TOKEN, conformanceOptions, send, type ConformanceScenario, type RunningTarget } from '@plant-store/testing';
import { createMemoryStore } from '@plant-store/store-memory';
import express from 'express';
import { afterAll, describe, expect, it } from 'vitest';
import { REQUESTS } from './parity-requests.ts';

const CREATE_HEADERS = { authorization: `Bearer ${CONFORMANCE_TOKEN}`, 'content-type': 'application/json' };
import { RUNTIMES, spawnServer } from './runtimes.ts';

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

/**
 * A library target's handler options for `scenario`: quiet, and in the working
 * scenario with the routes every standalone server adds (health, the docs
 * page and the metrics) and the refusals it declares, so that all serve the same OpenAPI document.
 */
function libraryOptions(scenario: ConformanceScenario) {
  // As the standalone servers have them, the overload gate at its defaults included.
  const standalone =
    scenario === 'working'
      ? { health: true, docs: docsPage, protocolErrors: Object.keys(PROTOCOL_ERRORS) as ProtocolErrorKind[], overload: {}, metrics: true }
      : {};
  return { ...conformanceOptions(scenario, createMemoryStore()), ...standalone, onError: () => {} };
}
/** The version of the @whatwg-node/server installed as `specifier`. */
function whatwgVersion(specifier: string): string {
  return (createRequire(import.meta.url)(`${specifier}/package.json`) as { version: string }).version;
}

const TARGETS: readonly Target[] = [
  ...RUNTIMES.map((runtime): Target => ({ name: `${runtime.name} standalone`, start: (scenario) => spawnServer(runtime, scenario) })),
  {
    name: 'server serve() in-process',
    start: async (scenario) => {
      const running = await serve({ ...libraryOptions(scenario), port: 0, accessLog: false });
      return { baseUrl: running.url, close: running.close };
    },
  },
  {
    name: 'adapter-node in Express under /api',
    mounted: true,
    start: (scenario) => {
      const app = express();
      app.use('/api', createNodeHandler(libraryOptions(scenario)));
      return listen(createServer(app), '/api');
    },
  },
  // The newest @whatwg-node/server the peer range allows, through the public entry, and the oldest, through the same bridge.
  {
    name: `adapter-fetch via @whatwg-node/server ${whatwgVersion('@whatwg-node/server')}`,
    start: (scenario) => listen(createServer(createNodeServerAdapter(libraryOptions(scenario)))),
  },
  {
    name: `adapter-fetch via @whatwg-node/server ${whatwgVersion('whatwg-node-server-oldest')}`,
    start: async (scenario) => listen(createServer(bridgeFetchHandler(await import('whatwg-node-server-oldest'), libraryOptions(scenario)))),
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
  for (const { label, scenario = 'working', request, standaloneOnly } of REQUESTS) {
    if (target.mounted && standaloneOnly) continue;
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

describe('packages/adapter-fetch/QUIRKS.md, whatwg-node-absolute-form: delete its set when this fails', () => {
  it.each(['@whatwg-node/server', 'whatwg-node-server-oldest'])(
    'canary: %s still joins an absolute-form target onto the Host when it builds the Request',
    async (specifier) => {
      const whatwg = (await import(specifier)) as typeof import('@whatwg-node/server');
      const server = await listen(createServer(whatwg.createServerAdapter((request: Request) => new Response(request.url))));
      try {
        const { port } = new URL(server.baseUrl);
        const answer = await send(server.baseUrl, { method: 'GET', path: 'http://example.com/plants', headers: { host: `127.0.0.1:${port}` } });
        expect(answer.body).toBe(`http://127.0.0.1:${port}http://example.com/plants`);
      } finally {
        await server.close();
      }
    },
  );
});

it('createNodeServerAdapter behind a mount that keeps originalUrl (as Connect does) routes an absolute-form target by it too', async () => {
  const adapter = createNodeServerAdapter({ ...conformanceOptions('working', createMemoryStore()), basePath: '/api', onError: () => {} });
  // Connect's mount: the prefix cut from `url`, the target as it came kept in `originalUrl`, which the bridge reads.
  const mounted = createServer((req, res) => {
    const target = req.url ?? '/';
    (req as typeof req & { originalUrl?: string }).originalUrl = target;
    req.url = target.replace(/^(?:[a-z]+:\/\/[^/]*)?\/api/i, '') || '/';
    void adapter(req, res);
  });
  const server = await listen(mounted);
  try {
    for (const path of ['/api/plants', 'http://example.com/api/plants']) {
      const answer = await send(server.baseUrl, { method: 'POST', path, headers: CREATE_HEADERS, body: `{"id":${path.length},"name":"mounted"}` });
      expect(`${path} ${answer.status} ${answer.body}`).toBe(`${path} 200 {"name":"mounted"}`);
    }
  } finally {
    await server.close();
  }
});

describe('parity: every runtime and adapter answers byte for byte the same', () => {
  const collected = new Map<string, Map<string, Answer>>();

  it.each(TARGETS.map((target) => [target.name, target] as const))('%s answers every request of the list', async (_name, target) => {
    const result = await answers(target);
    collected.set(target.name, result);
    for (const { label, status } of REQUESTS) {
      if (result.has(label)) expect(result.get(label)!.split(' ')[0], label).toBe(String(status));
    }
  });

  it('all answers equal the Node 24 standalone server, and the table says so', () => {
    const reference = collected.get('Node 24 standalone')!;
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
