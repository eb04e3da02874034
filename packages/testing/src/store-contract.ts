import fc from 'fast-check';
import type { Plant, PlantStore } from '@plant-store/core';
import { anyString, int64 } from './arbitraries.ts';

// The store contract as plain async checks: no vitest and no Node built-ins, so
// that it runs on every runtime a store supports (Node, Bun, Deno, workers).

/** Options of {@link runStoreContract} and `describeStoreContract`. */
export interface StoreContractOptions {
  /** Makes an empty store; called once per check. */
  readonly create: () => PlantStore | Promise<PlantStore>;
  /** Releases a store made by `create` (close a pool, drop a table). */
  readonly dispose?: (store: PlantStore) => void | Promise<void>;
  /** Runs of each property. Default 100. */
  readonly numRuns?: number;
}

/** One check of the store contract: it rejects, naming what differed, when the store breaks it. */
export interface StoreContractCheck {
  /** What the check asserts, e.g. `answers undefined for an id never stored`. */
  readonly name: string;
  /** Runs the check on an empty store; `numRuns` runs of each property in it. */
  check(store: PlantStore, numRuns: number): Promise<void>;
}

/** The outcome of one check in {@link runStoreContract}. */
export interface StoreContractResult {
  /** The check's name, as in {@link STORE_CONTRACT}. */
  readonly name: string;
  /** Whether the store passed it. */
  readonly ok: boolean;
  /** Why it failed, when it did: the message and, for a property, the counterexample. */
  readonly error?: string;
}

/** Any JSON string content, with or without a tag, as stores must keep it. */
const plant = (): fc.Arbitrary<Plant> =>
  fc.record({ name: anyString(), tag: fc.option(anyString(), { nil: undefined }) }).map(({ name, tag }) => (tag === undefined ? { name } : { name, tag }));

/** A value for a failure message: bigints, `undefined` and lone surrogates shown as they are. */
function show(value: unknown): string {
  if (value === undefined) return 'undefined';
  if (typeof value === 'bigint') return `${value}n`;
  return JSON.stringify(value, (_, item: unknown) => (typeof item === 'bigint' ? `${item}n` : item === undefined ? '<undefined>' : item)) ?? String(value);
}

/**
 * Deep equality of plain data. Loose (vitest's `toEqual`): keys whose value is
 * `undefined` count as absent. Strict (`toStrictEqual`): they count as keys, and
 * objects must share their prototype.
 */
function equal(actual: unknown, expected: unknown, strict: boolean): boolean {
  if (Object.is(actual, expected)) return true;
  if (typeof actual !== 'object' || typeof expected !== 'object' || actual === null || expected === null) return false;
  if (Array.isArray(actual) !== Array.isArray(expected)) return false;
  if (strict && Object.getPrototypeOf(actual) !== Object.getPrototypeOf(expected)) return false;
  const keys = (value: object) =>
    Object.keys(value)
      .filter((key) => strict || (value as Record<string, unknown>)[key] !== undefined)
      .sort();
  const actualKeys = keys(actual);
  const expectedKeys = keys(expected);
  if (actualKeys.length !== expectedKeys.length || actualKeys.some((key, i) => key !== expectedKeys[i])) return false;
  return actualKeys.every((key) => equal((actual as Record<string, unknown>)[key], (expected as Record<string, unknown>)[key], strict));
}

/** Throws unless `actual` equals `expected` as vitest's `toEqual` would have it. */
function expectEqual(actual: unknown, expected: unknown, what: string): void {
  if (!equal(actual, expected, false)) throw new Error(`${what}: expected ${show(expected)}, got ${show(actual)}`);
}

/** Throws unless `actual` equals `expected` as vitest's `toStrictEqual` would have it. */
function expectStrictEqual(actual: unknown, expected: unknown, what: string): void {
  if (!equal(actual, expected, true)) throw new Error(`${what}: expected exactly ${show(expected)}, got ${show(actual)}`);
}

/**
 * The behaviour every {@link PlantStore} must share, one check per entry: exact
 * int64 keys, insert-if-absent that never overwrites, reporting the stored plant
 * on a clash, exactly one winner among concurrent inserts of an id, and a
 * `ready()`, where the store has one, that answers. Each
 * check expects an empty store of its own. Free of vitest and of Node built-ins.
 *
 * @example
 * for (const { name, check } of STORE_CONTRACT) await check(await createMyStore(), 50);
 */
export const STORE_CONTRACT: readonly StoreContractCheck[] = [
  {
    name: 'stores a plant under its exact id and reads it back unchanged',
    async check(store, numRuns) {
      await fc.assert(
        fc.asyncProperty(int64(), plant(), async (id, p) => {
          const before = await store.get(id);
          const result = await store.insertIfAbsent(id, p);
          if (before === undefined) {
            expectEqual(result, { status: 'inserted' }, `insertIfAbsent(${id}n) of a new id`);
            expectEqual(await store.get(id), p, `get(${id}n) after inserting it`);
          } else {
            expectEqual(result, { status: 'exists', existing: before }, `insertIfAbsent(${id}n) of a stored id`);
          }
        }),
        { numRuns },
      );
    },
  },
  {
    name: 'answers undefined for an id never stored',
    async check(store) {
      const found = await store.get(42n);
      if (found !== undefined) throw new Error(`get(42n) on an empty store: expected undefined, got ${show(found)}`);
    },
  },
  {
    name: 'never overwrites: a second insert reports the first plant and leaves it',
    async check(store, numRuns) {
      await fc.assert(
        fc.asyncProperty(int64(), plant(), plant(), async (id, first, second) => {
          const existing = await store.get(id);
          await store.insertIfAbsent(id, first);
          const kept = existing ?? first;
          expectEqual(await store.insertIfAbsent(id, second), { status: 'exists', existing: kept }, `second insertIfAbsent(${id}n)`);
          expectEqual(await store.get(id), kept, `get(${id}n) after a second insert`);
        }),
        { numRuns },
      );
    },
  },
  {
    name: 'keeps ids apart that a double would merge (2^60 and 2^60 + 1, the int64 extremes)',
    async check(store) {
      const ids = [1152921504606846976n, 1152921504606846977n, -(2n ** 63n), 2n ** 63n - 1n, 0n, -1n];
      for (const [i, id] of ids.entries()) {
        expectEqual(await store.insertIfAbsent(id, { name: `plant ${i}` }), { status: 'inserted' }, `insertIfAbsent(${id}n)`);
      }
      for (const [i, id] of ids.entries()) expectEqual(await store.get(id), { name: `plant ${i}` }, `get(${id}n)`);
    },
  },
  {
    name: 'stores tag only when given, and empty strings as they are',
    async check(store) {
      await store.insertIfAbsent(1n, { name: '' });
      await store.insertIfAbsent(2n, { name: 'a', tag: '' });
      expectStrictEqual(await store.get(1n), { name: '' }, 'get(1n) of a plant stored without a tag');
      expectStrictEqual(await store.get(2n), { name: 'a', tag: '' }, 'get(2n) of a plant stored with an empty tag');
    },
  },
  {
    name: 'is not changed through the objects passed in or handed out',
    async check(store) {
      const given: { name: string; tag?: string } = { name: 'Fern', tag: 'green' };
      await store.insertIfAbsent(3n, given);
      given.name = 'changed';
      const read = (await store.get(3n)) as { name: string } | undefined;
      try {
        if (read !== undefined) read.name = 'changed too';
      } catch {
        // A frozen plant may refuse the write; either way the store must not change.
      }
      expectEqual(await store.get(3n), { name: 'Fern', tag: 'green' }, 'get(3n) after changing the objects passed in and handed out');
    },
  },
  {
    name: 'lets exactly one of 32 concurrent inserts of one id win',
    async check(store) {
      const results = await Promise.all(Array.from({ length: 32 }, (_, i) => store.insertIfAbsent(77n, { name: `racer ${i}` })));
      const winners = results.filter((result) => result.status === 'inserted');
      if (winners.length !== 1) throw new Error(`32 concurrent inserts of 77n: expected 1 to insert, ${winners.length} did (${show(results)})`);
      const stored = await store.get(77n);
      for (const result of results) if (result.status === 'exists') expectEqual(result.existing, stored, 'the plant a losing insert reported');
    },
  },
  {
    name: 'is ready when it can serve: ready(), where present, answers, also beside inserts, and changes nothing',
    async check(store) {
      // Optional: a store without it counts as always ready.
      if (store.ready === undefined) return;
      if (typeof store.ready !== 'function') throw new Error(`ready: expected a method, got ${show(store.ready)}`);
      await store.ready();
      const [, inserted] = await Promise.all([store.ready(), store.insertIfAbsent(5n, { name: 'ready' }), store.ready()]);
      expectEqual(inserted, { status: 'inserted' }, 'insertIfAbsent(5n) between two ready() calls');
      await store.ready();
      expectEqual(await store.get(5n), { name: 'ready' }, 'get(5n) after ready()');
      expectEqual(await store.get(6n), undefined, 'get(6n), never stored, after ready()');
    },
  },
];

/**
 * Runs `check` on a store made by `options.create`, then disposes of the store
 * whatever happened. The building block of {@link runStoreContract} and
 * `describeStoreContract`.
 */
export async function runStoreContractCheck(check: StoreContractCheck, options: StoreContractOptions): Promise<void> {
  const store = await options.create();
  try {
    await check.check(store, options.numRuns ?? 100);
  } finally {
    await options.dispose?.(store);
  }
}

/** An error's message followed by those of its causes (fast-check puts the property's own failure there). */
function describeError(error: unknown): string {
  const lines: string[] = [];
  for (let current = error, depth = 0; current !== undefined && depth < 5; depth++) {
    lines.push(current instanceof Error ? current.message : String(current));
    current = current instanceof Error ? current.cause : undefined;
  }
  return lines.join('\nCaused by: ');
}

/**
 * Runs every check of {@link STORE_CONTRACT}, one after the other and each on a
 * fresh store, and reports each outcome instead of throwing: for runners outside
 * vitest, e.g. a script on Bun or Deno that prints the results.
 *
 * @example
 * import { runStoreContract } from '@plant-store/testing/store-contract';
 * const results = await runStoreContract({ create: () => createMyStore(), numRuns: 50 });
 * if (results.some((result) => !result.ok)) throw new Error(JSON.stringify(results));
 */
export async function runStoreContract(options: StoreContractOptions): Promise<StoreContractResult[]> {
  const results: StoreContractResult[] = [];
  for (const check of STORE_CONTRACT) {
    try {
      await runStoreContractCheck(check, options);
      results.push({ name: check.name, ok: true });
    } catch (error) {
      results.push({ name: check.name, ok: false, error: describeError(error) });
    }
  }
  return results;
}
