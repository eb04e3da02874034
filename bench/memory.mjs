// Bytes per stored plant in store-memory at 1,000,000 plants (10-char name,
// 8-char tag), and how much of that is beyond the two strings themselves.
import { createMemoryStore } from '@plant-store/store-memory';

const COUNT = 1_000_000;
// A V8 one-byte string: 12 bytes of header plus its characters, rounded up to 8.
const stringBytes = (/** @type {number} */ length) => Math.ceil((12 + length) / 8) * 8;

const store = createMemoryStore({ maxPlants: COUNT, maxBytes: 2 ** 40 });
// Strings made before measuring, so that only what the store adds is counted.
const names = Array.from({ length: COUNT }, (_, i) => `p${String(i).padStart(9, '0')}`);
const tags = Array.from({ length: COUNT }, (_, i) => `t${String(i).padStart(7, '0')}`);
if (globalThis.gc === undefined) throw new Error('run with node --expose-gc');
globalThis.gc();
const before = process.memoryUsage().heapUsed;
for (let i = 0; i < COUNT; i++) await store.insertIfAbsent(BigInt(i) * 7919n, { name: /** @type {string} */ (names[i]), tag: /** @type {string} */ (tags[i]) });
globalThis.gc();
const after = process.memoryUsage().heapUsed;
const perPlant = (after - before) / COUNT;
const strings = stringBytes(10) + stringBytes(8);
console.log(JSON.stringify({ plants: store.size, addedBytesPerPlant: perPlant, stringBytesPerPlant: strings, totalBytesPerPlant: perPlant + strings }));
