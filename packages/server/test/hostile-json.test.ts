// Runs under vitest on Node.
import { staticTokens } from '@plant-store/core';
import { send, type RawResponse } from '@plant-store/testing';
import { createMemoryStore, type MemoryStore } from '@plant-store/store-memory';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serve, type RunningServer } from '../src/index.ts';

const HEADERS = { authorization: 'Bearer t', 'content-type': 'application/json' };

describe('hostile JSON', () => {
  let running: RunningServer;
  let store: MemoryStore;
  const errors: unknown[] = [];
  const prototypeKeys = () => [Object, Array, Function, String].map((type) => Object.getOwnPropertyNames(type.prototype).sort().join());
  const before = prototypeKeys();
  beforeAll(async () => {
    store = createMemoryStore();
    running = await serve({ store, authenticate: staticTokens(['t']), port: 0, accessLog: false, onError: (error) => errors.push(error) });
  });
  afterAll(async () => {
    await running.close();
    expect(prototypeKeys()).toEqual(before);
    expect(errors).toEqual([]);
  });

  const create = (body: string | Uint8Array) => send(running.url, { path: '/plants', headers: HEADERS, body });
  const code = (response: RawResponse) => [response.status, (JSON.parse(response.body) as { error?: number }).error];

  it('answers nesting 100,000 deep without a 5xx or a crash', async () => {
    expect(code(await create(`${'['.repeat(100_000)}${']'.repeat(100_000)}`))).toEqual([400, 1002]);
    expect(code(await create(`${'{"a":'.repeat(100_000)}1${'}'.repeat(100_000)}`))).toEqual([400, 1003]);
    expect(code(await create(`{"id":1,"name":"n","x":${'['.repeat(100_000)}}`))).toEqual([400, 1001]);
  });

  it('answers a megabyte of digits in id with 1004, or 413 past the limit', async () => {
    const prefix = '{"id":';
    const suffix = ',"name":"n"}';
    expect(code(await create(`${prefix}${'9'.repeat((1 << 20) - prefix.length - suffix.length)}${suffix}`))).toEqual([400, 1004]);
    expect(code(await create(`${prefix}${'9'.repeat(1 << 20)}${suffix}`))).toEqual([413, 1400]);
    expect(code(await create(`${prefix}1e${'9'.repeat(10_000)}${suffix}`))).toEqual([400, 1004]);
  });

  it('lets __proto__ and constructor.prototype change nothing', async () => {
    const first = await create('{"id":2,"name":"p","__proto__":{"polluted":true,"name":"evil"}}');
    expect([first.status, first.body]).toEqual([200, '{"name":"p"}']);
    const second = await create('{"id":3,"name":"c","constructor":{"prototype":{"polluted":true}}}');
    expect([second.status, second.body]).toEqual([200, '{"name":"c"}']);
    expect(code(await create('{"__proto__":{"id":4,"name":"hidden"}}'))).toEqual([400, 1003]);
    expect(({} as { polluted?: unknown }).polluted).toBeUndefined();
    expect(await store.get(2n)).toEqual({ name: 'p' });
    expect(await store.get(4n)).toBeUndefined();
  });

  it('refuses invalid UTF-8 and raw surrogates, ignores a BOM, keeps escaped lone surrogates exactly', async () => {
    expect(code(await create(new Uint8Array([...Buffer.from('{"id":5,"name":"'), 0xff, 0xfe, ...Buffer.from('"}')])))).toEqual([400, 1001]);
    expect(code(await create(new Uint8Array([...Buffer.from('{"id":5,"name":"'), 0xed, 0xa0, 0x80, ...Buffer.from('"}')])))).toEqual([400, 1001]);
    expect(code(await create(new Uint8Array([0xef, 0xbb, 0xbf, ...Buffer.from('{"id":6,"name":"bom"}')])))).toEqual([200, undefined]);
    const lone = await create('{"id":7,"name":"\\ud800x\\udc00"}');
    expect([lone.status, lone.body]).toEqual([200, '{"name":"\\ud800x\\udc00"}']);
    expect(await store.get(7n)).toEqual({ name: '\ud800x\udc00' });
  });

  it('takes the last of duplicate keys, as JSON.parse does, on every runtime (see the parity list)', async () => {
    const response = await create('{"id":8,"id":9,"name":"first","name":"last"}');
    expect([response.status, response.body]).toEqual([200, '{"name":"last"}']);
    expect(await store.get(9n)).toEqual({ name: 'last' });
    expect(await store.get(8n)).toBeUndefined();
  });
});
