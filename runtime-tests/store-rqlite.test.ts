// Runs on Node (vitest): the rqlite store against one real rqlited, with basic auth on a second, and against tiny node:http servers that redirect or never answer.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { StoreTimeoutError } from '@plant-store/core';
import { describeStoreContract } from '@plant-store/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRqliteStore } from '@plant-store/store-rqlite';
import { probe, startNode, stopAll, waitReady, type RqliteNodeProcess } from './support/rqlited.ts';

const USER = { username: 'plant-store', password: 'pä:ss@wörd' };
let node: RqliteNodeProcess;
let guarded: RqliteNodeProcess;
const servers: Server[] = [];

beforeAll(async () => {
  [node, guarded] = await Promise.all([startNode('single'), startNode('guarded', { users: [USER] })]);
  const basic = `Basic ${Buffer.from(`${USER.username}:${USER.password}`).toString('base64')}`;
  await Promise.all([waitReady(node), waitReady(guarded, undefined, { authorization: basic })]);
});

afterAll(async () => {
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
  await stopAll();
});

/** A node:http server on a free port of 127.0.0.1 that answers with `handle`; its URL. */
async function serve(handle: (request: IncomingMessage, response: ServerResponse) => void): Promise<string> {
  const server = createServer(handle);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as { port: number }).port}`;
}

let tables = 0;
// A table of its own per check: the contract expects an empty store each time.
describeStoreContract('store-rqlite, one node', { create: () => createRqliteStore({ urls: [node.url], table: `contract_${++tables}` }), numRuns: 25 });

describe('createRqliteStore on one node', () => {
  it('keeps ids exact at both int64 extremes and around 2^53, stored as SQLite integers', async () => {
    const store = createRqliteStore({ urls: [node.url], table: 'exact_ids' });
    const ids = [
      -(2n ** 63n),
      -(2n ** 63n) + 1n,
      -(2n ** 53n) - 1n,
      -(2n ** 53n),
      2n ** 53n - 1n,
      2n ** 53n,
      2n ** 53n + 1n,
      2n ** 53n + 2n,
      2n ** 63n - 2n,
      2n ** 63n - 1n,
    ];
    for (const [i, id] of ids.entries()) expect(await store.insertIfAbsent(id, { name: `p${i}` })).toEqual({ status: 'inserted' });
    for (const [i, id] of ids.entries()) {
      expect(await store.get(id)).toEqual({ name: `p${i}` });
      expect(await store.insertIfAbsent(id, { name: 'other' })).toEqual({ status: 'exists', existing: { name: `p${i}` } });
    }
    // Integers in SQLite, not text: the primary key orders and compares them as numbers.
    const response = await probe(`${node.url}/db/query?level=strong`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify([['SELECT typeof(id), CAST(id AS TEXT) FROM exact_ids ORDER BY id']]),
    });
    const { results } = (await response.json()) as { results: { values: [string, string][] }[] };
    expect(results[0]!.values).toEqual(ids.map((id) => ['integer', String(id)]));
    await expect(store.get(2n ** 63n)).rejects.toThrow(RangeError);
  });

  it('keeps names with U+0000 and lone surrogates exactly, which rqlite would turn into U+FFFD as plain parameters', async () => {
    const store = createRqliteStore({ urls: [node.url], table: 'odd_strings' });
    const plant = { name: 'a\u0000b\uD800c', tag: '\uDFFF"\\' };
    expect(await store.insertIfAbsent(1n, plant)).toEqual({ status: 'inserted' });
    expect(await store.get(1n)).toEqual(plant);
  });

  it('creates its table on first use, once, whichever call comes first', async () => {
    const store = createRqliteStore({ urls: [node.url], table: 'first_use' });
    const [inserted, missing] = await Promise.all([store.insertIfAbsent(1n, { name: 'a' }), store.get(2n)]);
    expect(inserted).toEqual({ status: 'inserted' });
    expect(missing).toBeUndefined();
    // A second store on the same table finds it there.
    expect(await createRqliteStore({ urls: [node.url], table: 'first_use' }).get(1n)).toEqual({ name: 'a' });
  });

  it('sends the credentials of the URL as basic auth, and a wrong password fails at once, naming no password', async () => {
    const url = new URL(guarded.url);
    url.username = encodeURIComponent(USER.username);
    url.password = encodeURIComponent(USER.password);
    const store = createRqliteStore({ urls: [url.href.replace(/\/$/, '')] });
    await store.ready();
    expect(await store.insertIfAbsent(9n, { name: 'guarded' })).toEqual({ status: 'inserted' });
    expect(await store.get(9n)).toEqual({ name: 'guarded' });

    url.password = 'wrong';
    const refused = createRqliteStore({ urls: [url.href.replace(/\/$/, '')], timeoutMs: 10_000 });
    const started = performance.now();
    const error = await refused.get(9n).then(
      () => undefined,
      (reason: unknown) => reason as Error,
    );
    expect(error?.message).toMatch(/answered 401/);
    expect(error?.message).not.toMatch(/wrong/);
    // A 4xx is not retried: it would be refused by every node.
    expect(performance.now() - started).toBeLessThan(2_000);
  });

  it('ready() resolves while the node has a leader', async () => {
    await createRqliteStore({ urls: [node.url], table: 'ready_check' }).ready();
  });
});

describe('createRqliteStore redirects', () => {
  it('does not follow a redirect to an address outside the configured nodes', async () => {
    const outsideHits: string[] = [];
    const outside = await serve((request, response) => {
      outsideHits.push(`${request.method} ${request.url}`);
      response.end('{"results":[{"rows_affected":1}]}');
    });
    let redirected = 0;
    const redirecting = await serve((request, response) => {
      redirected++;
      request.resume();
      response.writeHead(301, { location: `${outside}${request.url}` }).end();
    });
    const store = createRqliteStore({ urls: [redirecting], timeoutMs: 600 });
    const error = await store.insertIfAbsent(1n, { name: 'a' }).then(
      () => undefined,
      (reason: unknown) => reason as Error,
    );
    expect(error).toBeInstanceOf(StoreTimeoutError);
    expect(String((error?.cause as Error | undefined)?.message)).toMatch(/not one of the configured nodes; not followed/);
    expect(redirected).toBeGreaterThan(0);
    expect(outsideHits).toEqual([]);
    await expect(store.ready()).rejects.toThrow(/not followed/);
    expect(outsideHits).toEqual([]);
  });

  it('follows a redirect to another configured node, keeping its own path and query', async () => {
    const seen: string[] = [];
    const redirecting = await serve((request, response) => {
      seen.push(String(request.url));
      request.resume();
      // Elsewhere on the node, as a hostile or broken node might say: the store keeps its own path.
      response.writeHead(307, { location: `${node.url}/somewhere/else?q=1` }).end();
    });
    const store = createRqliteStore({ urls: [redirecting, node.url], table: 'redirected' });
    expect(await store.insertIfAbsent(1n, { name: 'via redirect' })).toEqual({ status: 'inserted' });
    expect(await store.get(1n)).toEqual({ name: 'via redirect' });
    expect(seen.some((url) => url.startsWith('/db/execute?'))).toBe(true);
  });
});

describe('createRqliteStore deadlines and failover', () => {
  it('rejects within timeoutMs when the only node never answers', async () => {
    const silent = await serve(() => {
      // Never answers.
    });
    const store = createRqliteStore({ urls: [silent], timeoutMs: 400 });
    const started = performance.now();
    await expect(store.insertIfAbsent(1n, { name: 'a' })).rejects.toBeInstanceOf(StoreTimeoutError);
    await expect(store.get(1n)).rejects.toBeInstanceOf(StoreTimeoutError);
    expect(performance.now() - started).toBeLessThan(400 * 2 + 500);
  });

  it('moves on from a node that never answers after attemptTimeoutMs, and from one that refuses connections', async () => {
    const silent = await serve(() => {
      // Never answers.
    });
    // A port nothing listens on: closed as soon as it was bound.
    const closed = await serve(() => {});
    servers.pop()!.close();
    const store = createRqliteStore({ urls: [silent, closed, node.url], table: 'failover_one', attemptTimeoutMs: 200, timeoutMs: 3_000 });
    const started = performance.now();
    expect(await store.insertIfAbsent(1n, { name: 'a' })).toEqual({ status: 'inserted' });
    expect(performance.now() - started).toBeLessThan(2_000);
    // The node that answered is asked first from then on.
    const again = performance.now();
    expect(await store.get(1n)).toEqual({ name: 'a' });
    expect(performance.now() - again).toBeLessThan(150);
  });

  it('tries the next node on a 503, and rejects at the deadline when every node keeps answering 503', async () => {
    let unavailable = 0;
    const busy = await serve((request, response) => {
      unavailable++;
      request.resume();
      response.writeHead(503).end('leader not found');
    });
    expect(await createRqliteStore({ urls: [busy, node.url], table: 'after_503' }).insertIfAbsent(1n, { name: 'a' })).toEqual({ status: 'inserted' });
    expect(unavailable).toBeGreaterThan(0);
    const store = createRqliteStore({ urls: [busy], timeoutMs: 500 });
    const started = performance.now();
    const error = await store.get(1n).then(
      () => undefined,
      (reason: unknown) => reason as Error,
    );
    expect(error).toBeInstanceOf(StoreTimeoutError);
    expect(String((error?.cause as Error | undefined)?.message)).toMatch(/answered 503: leader not found/);
    expect(performance.now() - started).toBeLessThan(1_500);
  });
});
