// Core cost per request, without HTTP: a valid create, an invalid body, a 401;
// and the exact-int64 path of the body parser against its fast path.
import { createPlantHandler, parseNewPlant, staticTokens } from '@plant-store/core';
import { createMemoryStore } from '@plant-store/store-memory';
import { Bench } from 'tinybench';

const encoder = new TextEncoder();
const TOKEN = 'bench-token';
const handle = createPlantHandler({ store: createMemoryStore({ maxPlants: 10_000_000 }), authenticate: staticTokens([TOKEN]) });
// The same with the metrics on (counted, never scraped): what counting costs a create.
const handleCounted = createPlantHandler({ store: createMemoryStore({ maxPlants: 10_000_000 }), authenticate: staticTokens([TOKEN]), metrics: true });
/** @type {(headers: Record<string, string | undefined>, body: Uint8Array) => import('@plant-store/core').PlantRequest} */
const request = (headers, body) => ({
  method: 'POST',
  url: '/plants',
  header: (name) => headers[name],
  readBody: async () => ({ ok: true, bytes: body }),
});
const authorized = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' };
let id = 0;
const invalid = encoder.encode('{"id":"5","name":"Monstera"}');
const valid = () => encoder.encode(`{"id":${++id},"name":"Monstera","tag":"tropical"}`);
const safeBody = encoder.encode('{"id":1234567,"name":"Monstera","tag":"tropical"}');
const exactBody = encoder.encode('{"id":9223372036854775807,"name":"Monstera","tag":"tropical"}');
const safeText = '{"id":1234567,"name":"Monstera","tag":"tropical"}';

const bench = new Bench({ time: 1_000, warmupTime: 300 });
bench
  .add('handler: valid create (200)', () => handle(request(authorized, valid())))
  .add('handler: valid create (200), metrics on', () => handleCounted(request(authorized, valid())))
  .add('handler: invalid body (400)', () => handle(request(authorized, invalid)))
  .add('handler: no token (401)', () => handle(request({}, invalid)))
  .add('parse: JSON.parse alone (reference)', () => JSON.parse(safeText))
  .add('parse: safe-integer id (fast path)', () => parseNewPlant(safeBody))
  .add('parse: id beyond 2^53 (exact path)', () => parseNewPlant(exactBody));
await bench.run();
console.log(
  JSON.stringify(
    bench.tasks.map((task) => {
      if (!('throughput' in task.result)) throw new Error(`${task.name}: ${task.result.state}`);
      return { name: task.name, opsPerSecond: task.result.throughput.mean, meanNs: task.result.latency.mean * 1e6 };
    }),
  ),
);
