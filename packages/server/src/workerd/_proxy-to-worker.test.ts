// Runs under vitest on Node.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseResponses, rawExchange } from '@plant-store/testing';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { connectionOptions, isDocsRequest, originForm, proxyToWorker, type FrontRoute, type WorkerProxy } from './_proxy-to-worker.ts';

// proxyToWorker against a plain node:http server standing in for workerd,
// which writes back what reached it, over real sockets.
const MAX = 64;

interface Seen {
  method: string;
  url: string;
  headers: string[];
  body: string;
}

const listen = (server: Server) => new Promise<number>((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)));

let upstream: Server;
let front: Server;
let proxy: WorkerProxy;
let frontUrl: string;
beforeAll(async () => {
  upstream = createServer((req: IncomingMessage, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const seen: Seen = { method: req.method!, url: req.url!, headers: req.rawHeaders, body: Buffer.concat(chunks).toString() };
      const json = JSON.stringify(seen);
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(json), 'keep-alive': 'timeout=99' }).end(json);
    });
  });
  const port = await listen(upstream);
  proxy = proxyToWorker(
    { host: '127.0.0.1', port },
    (_req, res) => res.writeHead(405, { 'content-type': 'text/plain', 'content-length': 5 }).end('local'),
    MAX,
  );
  front = createServer(proxy.handler);
  frontUrl = `http://127.0.0.1:${await listen(front)}`;
});
afterAll(async () => {
  proxy.close();
  await Promise.all([front, upstream].map((server) => new Promise((resolve) => server.close(resolve))));
});

async function exchange(bytes: string): Promise<{ status: number; seen?: Seen; body: string; headers: Record<string, string> }> {
  const [response] = parseResponses((await rawExchange(frontUrl, [bytes], 3_000, { answers: 1 })).received);
  const body = response?.body ?? '';
  return { status: response?.status ?? 0, body, headers: response?.headers ?? {}, ...(response?.status === 200 ? { seen: JSON.parse(body) as Seen } : {}) };
}

const names = (seen: Seen | undefined) => seen!.headers.filter((_, i) => i % 2 === 0).map((name) => name.toLowerCase());

describe('proxyToWorker', () => {
  it('passes a chunked body on whole, with its length, and drops hop-by-hop, Host and MF- headers', async () => {
    const { seen, headers } = await exchange(
      'POST /plants?x=1 HTTP/1.1\r\nHost: a\r\nX-Keep: yes\r\nMF-CF-Blob: {bad\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n3\r\nabc\r\n2\r\nde\r\n0\r\n\r\n',
    );
    expect(seen).toMatchObject({ method: 'POST', url: '/plants?x=1', body: 'abcde' });
    expect(names(seen)).toEqual(expect.arrayContaining(['x-keep', 'host', 'content-length']));
    expect(names(seen)).not.toContain('mf-cf-blob');
    expect(names(seen)).not.toContain('transfer-encoding');
    expect(seen!.headers[seen!.headers.findIndex((name) => name.toLowerCase() === 'host') + 1]).toMatch(/^127\.0\.0\.1:\d+$/);
    // The Worker's own keep-alive is not the client's.
    expect(headers['keep-alive']).not.toBe('timeout=99');
  });

  it("replaces the client's address headers with the peer's, and drops Proxy-Authorization, CF- headers and those Connection names", async () => {
    const { seen } = await exchange(
      'POST /plants HTTP/1.1\r\nHost: a\r\nAuthorization: Bearer t\r\nConnection: keep-alive, X-Secret\r\nX-Secret: s\r\n' +
        'Proxy-Authorization: Basic cDpx\r\nCF-Connecting-IP: 6.6.6.6\r\nCF-Ray: 1-LHR\r\nX-Real-IP: 6.6.6.6\r\nX-Forwarded-For: 6.6.6.6\r\n' +
        'Forwarded: for=6.6.6.6\r\nTrue-Client-IP: 6.6.6.6\r\nX-Forwarded-Host: evil\r\nContent-Length: 2\r\n\r\n{}',
    );
    const pairs = seen!.headers.flatMap((name, i) => (i % 2 === 0 ? [`${name.toLowerCase()}: ${seen!.headers[i + 1]}`] : []));
    const peer = pairs.filter((pair) => /^(cf-connecting-ip|x-forwarded-for|x-real-ip):/.test(pair));
    expect(peer).toEqual(['cf-connecting-ip: 127.0.0.1', 'x-forwarded-for: 127.0.0.1', 'x-real-ip: 127.0.0.1']);
    expect(pairs).toContain('authorization: Bearer t');
    // (The Connection header workerd gets is the front's own, for its own connection.)
    for (const dropped of ['x-secret', 'proxy-authorization', 'cf-ray', 'forwarded', 'true-client-ip', 'x-forwarded-host']) {
      expect(names(seen)).not.toContain(dropped);
    }
    expect(pairs.join('\n')).not.toContain('6.6.6.6');
  });

  it('reads the header names a Connection header lists, leaving out close and keep-alive', () => {
    expect(connectionOptions(undefined)).toBeUndefined();
    expect(connectionOptions('close')).toBeUndefined();
    expect(connectionOptions(' Keep-Alive , close ')).toBeUndefined();
    expect(connectionOptions('close, X-Secret,,te ')).toEqual(new Set(['x-secret', 'te']));
  });

  it('passes on at most the limit and one byte, and nothing of a body declared larger', async () => {
    const over = 'x'.repeat(MAX + 10);
    expect(
      (
        await exchange(
          `POST /plants HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n${over.length.toString(16)}\r\n${over}\r\n0\r\n\r\n`,
        )
      ).seen?.body,
    ).toBe('x'.repeat(MAX + 1));
    const declared = await rawExchange(frontUrl, [`POST /plants HTTP/1.1\r\nHost: a\r\nContent-Length: ${MAX + 1}\r\n\r\n`], 1_000);
    // The stand-in waits for the declared body that never comes: no answer, and nothing was sent on.
    expect(parseResponses(declared.received)).toEqual([]);
  });

  it('answers methods the Worker has no route for locally', async () => {
    expect(await exchange('PUT /plants HTTP/1.1\r\nHost: a\r\nContent-Length: 0\r\nConnection: close\r\n\r\n')).toMatchObject({ status: 405, body: 'local' });
  });

  it('answers 503 (1501) with the Error body when the Worker cannot be reached', async () => {
    const dead = proxyToWorker({ host: '127.0.0.1', port: 1 }, () => {}, MAX);
    const server = createServer(dead.handler);
    const url = `http://127.0.0.1:${await listen(server)}`;
    const [response] = parseResponses((await rawExchange(url, ['GET /healthz HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n'], 3_000)).received);
    expect(response?.status).toBe(503);
    expect(JSON.parse(response!.body)).toMatchObject({ error: 1501 });
    expect(response?.headers['x-request-id']).toBeDefined();
    dead.close();
    await new Promise((resolve) => server.close(resolve));
  });

  it('answers 503 (1501) with the Error body when the Worker takes longer than the answer timeout, and cuts its request', async () => {
    // A stand-in that takes every request and never answers, as a stopped workerd (SIGSTOP) would.
    let cut = 0;
    const stopped = createServer((req) => req.socket.on('close', () => cut++));
    const waiting = proxyToWorker({ host: '127.0.0.1', port: await listen(stopped) }, () => {}, MAX, { answerTimeoutMs: 300 });
    const server = createServer(waiting.handler);
    const url = `http://127.0.0.1:${await listen(server)}`;
    const started = performance.now();
    const create = 'POST /plants HTTP/1.1\r\nHost: a\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}';
    const [response] = parseResponses((await rawExchange(url, [create], 5_000)).received);
    expect(response?.status).toBe(503);
    expect(JSON.parse(response!.body)).toMatchObject({ error: 1501 });
    // Not before the timeout (timers may fire a little early on some platforms, never 100 ms).
    expect(performance.now() - started).toBeGreaterThanOrEqual(200);
    // The request to the stand-in is cut.
    await vi.waitFor(() => expect(cut).toBe(1), { timeout: 5_000 });
    waiting.close();
    await Promise.all([server, stopped].map((each) => new Promise((resolve) => each.close(resolve))));
  });

  it('sends a request again on a new connection when a kept-alive one closes as it is taken, a body declared too large included', async () => {
    // A stand-in that, like workerd after some answers, closes a kept-alive connection as the next
    // request arrives on it; it refuses a declared length over the limit from the headers, as the Worker does.
    const taken = new WeakMap<object, number>();
    const closing = createServer((req, res) => {
      const count = (taken.get(req.socket) ?? 0) + 1;
      taken.set(req.socket, count);
      if (count > 1) return req.socket.destroy();
      if (Number(req.headers['content-length']) > MAX) return res.writeHead(413, { 'content-length': 3 }).end('big');
      req.resume();
      req.on('end', () => res.writeHead(200, { 'content-length': 2 }).end('ok'));
    });
    const retrying = proxyToWorker({ host: '127.0.0.1', port: await listen(closing) }, () => {}, MAX);
    const server = createServer(retrying.handler);
    const url = `http://127.0.0.1:${await listen(server)}`;
    const send = async (request: string) => parseResponses((await rawExchange(url, [request], 3_000)).received)[0]?.status;
    const create = 'POST /plants HTTP/1.1\r\nHost: a\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}';
    // Each request after the first finds the previous one's kept-alive connection, which the stand-in closes under it.
    expect(await send(create)).toBe(200);
    expect(await send(create)).toBe(200);
    expect(await send(`POST /plants HTTP/1.1\r\nHost: a\r\nContent-Length: ${MAX + 1}\r\nConnection: close\r\n\r\n`)).toBe(413);
    retrying.close();
    await Promise.all([server, closing].map((each) => new Promise((resolve) => each.close(resolve))));
  });

  it("gives overrule's answer in place of the Worker's to creates and readiness, keeping the Worker's other headers, and nothing to HEAD but its length", async () => {
    // A stand-in answering as the Worker does with CORS and request ids: 200 with its headers, 401 without a token.
    const worker = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        const body = req.headers.authorization === undefined ? '{"error":1100,"message":"no"}' : '{"name":"Fern"}';
        res.writeHead(req.headers.authorization === undefined ? 401 : 200, {
          'content-type': 'application/json',
          'content-length': req.method === 'HEAD' ? 2 : Buffer.byteLength(body),
          'x-request-id': 'abc',
          'access-control-allow-origin': '*',
        });
        res.end(req.method === 'HEAD' ? undefined : body);
      });
    });
    const asked: [number, boolean][] = [];
    const refusal = { status: 503, headers: { 'content-type': 'application/json' }, body: '{"error":1501,"message":"gone"}' };
    const judging = proxyToWorker({ host: '127.0.0.1', port: await listen(worker) }, () => {}, MAX, {
      overrule: (status, readiness) => {
        asked.push([status, readiness]);
        return status === 200 ? refusal : undefined;
      },
    });
    const server = createServer(judging.handler);
    const url = `http://127.0.0.1:${await listen(server)}`;
    const send = async (request: string) => parseResponses((await rawExchange(url, [request], 3_000, { answers: 1 })).received)[0]!;
    const created = await send('POST /plants HTTP/1.1\r\nHost: a\r\nAuthorization: Bearer t\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}');
    expect([created.status, created.body, created.headers['x-request-id'], created.headers['access-control-allow-origin']]).toEqual([
      503,
      refusal.body,
      'abc',
      '*',
    ]);
    expect(created.headers['content-length']).toBe(String(refusal.body.length));
    // Refused before the store, the Worker's answer stands: the order of checks is the Worker's.
    expect((await send('POST /plants HTTP/1.1\r\nHost: a\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}')).status).toBe(401);
    expect((await send('GET /readyz HTTP/1.1\r\nHost: a\r\nAuthorization: Bearer t\r\nConnection: close\r\n\r\n')).body).toBe(refusal.body);
    const head = await send('HEAD /readyz HTTP/1.1\r\nHost: a\r\nAuthorization: Bearer t\r\nConnection: close\r\n\r\n');
    expect([head.status, head.body, head.headers['content-length']]).toEqual([503, '', String(refusal.body.length)]);
    // Neither a create nor readiness: not asked.
    expect((await send('GET /openapi.json HTTP/1.1\r\nHost: a\r\nAuthorization: Bearer t\r\nConnection: close\r\n\r\n')).status).toBe(200);
    expect(asked).toEqual([
      [200, false],
      [401, false],
      [200, true],
      [200, true],
    ]);
    judging.close();
    await Promise.all([server, worker].map((each) => new Promise((resolve) => each.close(resolve))));
  });

  it('turns every target into origin-form', () => {
    expect(originForm('/plants?a=1')).toBe('/plants?a=1');
    expect(originForm('http://example.com/plants?a=1')).toBe('/plants?a=1');
    expect(originForm('http://example.com')).toBe('/');
    expect(originForm('*')).toBe('/*');
    expect(originForm('example.com:443')).toBe('/example.com%3A443');
    // What workerd refuses itself, percent-encoded: < > " anywhere, ` in the path.
    expect(originForm('/pl<ants?a<b>"c"`')).toBe('/pl%3Cants?a%3Cb%3E%22c%22`');
    expect(originForm('/plants`{}|^')).toBe('/plants%60{}|^');
  });
});

describe('WorkerProxy.sort', () => {
  // What isServerClosing reads: the request's server, no longer listening once the front drains.
  const request = (method: string, url: string, closing = false) =>
    ({ method, url, socket: { server: { listening: !closing } } }) as unknown as IncomingMessage;
  const sorted = (options: Parameters<typeof proxyToWorker>[3], requests: Array<[string, string, boolean?]>): FrontRoute[] => {
    const sorting = proxyToWorker({ host: '127.0.0.1', port: 1 }, () => {}, MAX, options);
    try {
      return requests.map(([method, url, closing]) => sorting.sort(request(method, url, closing)));
    } finally {
      sorting.close();
    }
  };

  it('sends methods the Worker has no route for, the docs files and, draining, all but a counted scrape to answerLocally', () => {
    expect(
      sorted({ docs: true, frontMetrics: () => '' }, [
        ['PUT', '/plants'],
        ['M-SEARCH', '*'],
        ['GET', '/docs/a.css'],
        ['HEAD', 'http://h/docs'],
        ['GET', '/docs/../metrics'],
      ]),
    ).toEqual(Array(5).fill('local'));
    expect(
      sorted({ frontMetrics: () => '' }, [
        ['POST', '/plants', true],
        ['GET', '/healthz', true],
        ['GET', '/metrics', true],
        ['HEAD', '/metrics?x', true],
      ]),
    ).toEqual(['local', 'local', 'scrape', 'scrape']);
    // With nothing counted here, a scrape is the Worker's alone, and answered locally like the rest while draining.
    expect(sorted({}, [['GET', '/metrics', true]])).toEqual(['local']);
  });

  it('lets probes and scrapes, by their routed path, past the overload bound, and the rest under it', () => {
    const requests: Array<[string, string]> = [
      ['GET', '/healthz'],
      ['HEAD', 'http://h/metrics'],
      ['GET', '/x/../metrics?y'],
      ['POST', '/plants'],
      ['OPTIONS', '/metrics'],
      ['GET', '/docs'],
    ];
    expect(sorted({}, requests)).toEqual(['probe', 'probe', 'probe', 'worker', 'worker', 'worker']);
    expect(sorted({ frontMetrics: () => '' }, requests)).toEqual(['probe', 'scrape', 'scrape', 'worker', 'worker', 'worker']);
  });
});

describe('isDocsRequest', () => {
  it('is GET or HEAD under /docs, in origin or absolute form', () => {
    const request = (method: string, url: string) => ({ method, url }) as IncomingMessage;
    expect(['/docs', '/docs/', '/docs/swagger-ui-bundle.js', '/docs?x', 'http://h/docs/a.css'].map((url) => isDocsRequest(request('GET', url)))).toEqual([
      true,
      true,
      true,
      true,
      true,
    ]);
    expect(isDocsRequest(request('HEAD', '/docs'))).toBe(true);
    expect([isDocsRequest(request('POST', '/docs')), isDocsRequest(request('GET', '/docsx')), isDocsRequest(request('GET', '/plants'))]).toEqual([
      false,
      false,
      false,
    ]);
  });
});
