// Runs on Node, Bun and Deno: what the core's `parseNewPlant` costs per call against the
// hand-written baseline's body work (a strict `TextDecoder`, `JSON.parse` and plain checks,
// as bench/servers/baseline-logic.mjs does them), on the same bodies, in one process, in
// interleaved rounds. By hand:
//
//   <runtime> bench/parse-new-plant.mjs [--before <file.mjs>] [--rounds 11] [--calls 400000]
//
// (Deno: `deno run --allow-read --allow-env`). `--before` adds the `parseNewPlant` an ESM
// file exports, so that two versions are timed side by side, e.g. an earlier build of the
// core bundled into one file: `esbuild packages/core/dist/index.js --bundle --format=esm
// --outfile=/tmp/core-before.mjs` before rebuilding. `parseNewPlant` is first checked against
// the strict decoder on bodies of every kind (valid, invalid, not UTF-8), and `before`
// against `parseNewPlant`: one that answers differently is refused, not timed. The baseline,
// whose answers are coarser (a copy of bench/servers/baseline-logic.mjs's body checks, kept
// in step with them), is timed only. Prints one line per body and contender: the
// median ns per call over the rounds (the first round, a warm-up, left out), the lowest and
// the highest.
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseNewPlant } from '@plant-store/core';

const args = process.argv.slice(2);
/** @param {string} name @param {string | undefined} fallback */
const option = (name, fallback) => {
  const at = args.indexOf(`--${name}`);
  return at < 0 ? fallback : args[at + 1];
};
const ROUNDS = Number(option('rounds', '11'));
const CALLS = Number(option('calls', '400000'));
const beforePath = option('before', undefined);

const strict = new TextDecoder('utf-8', { fatal: true });
const INT64_LIMIT = 2 ** 63;
const BAD = { ok: false };

/**
 * The baseline's body work: strict UTF-8, `JSON.parse`, an object, both fields present,
 * an integer id in range (as a double: exact only below 2^53), strings. Its answers are
 * coarser than the contract's (no positions, no exact id), so it is timed, not compared.
 * @param {Uint8Array} bytes
 */
function baseline(bytes) {
  let text;
  try {
    text = strict.decode(bytes);
  } catch {
    return BAD;
  }
  let json;
  try {
    json = JSON.parse(text);
  } catch {
    return BAD;
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json)) return BAD;
  const { id, name, tag } = json;
  if (id === undefined || name === undefined) return BAD;
  if (!Number.isInteger(id) || id < -INT64_LIMIT || id >= INT64_LIMIT || typeof name !== 'string' || (tag !== undefined && typeof tag !== 'string')) return BAD;
  return { ok: true, value: tag === undefined ? { id, name } : { id, name, tag } };
}

/** @type {Record<string, (bytes: Uint8Array) => unknown>} */
const contenders = { baseline, parseNewPlant };
if (beforePath !== undefined) {
  contenders['before'] = (await import(pathToFileURL(resolve(beforePath)).href)).parseNewPlant;
}

const encoder = new TextEncoder();
// Ids past 2^31, as wrk's are, so that no engine keeps them as small integers; a pool of
// bodies, so that no engine sees one body again and again.
const POOL = 1024;
/** @type {Record<string, (i: number) => Uint8Array>} */
const BODIES = {
  'create (ASCII)': (i) => encoder.encode(`{"id":${10_000_000_000 + i},"name":"Monstera","tag":"tropical"}`),
  'create (not ASCII)': (i) => encoder.encode(`{"id":${10_000_000_000 + i},"name":"Monstera déliciosa","tag":"🌱"}`),
  'create (id past 2^53)': (i) => encoder.encode(`{"id":${9_000_000_000_000_000_000n + BigInt(i)},"name":"Monstera","tag":"tropical"}`),
  'create (pretty, extra member)': (i) => encoder.encode(`{\n  "id": ${10_000_000_000 + i},\n  "name": "Monstera",\n  "owner": "kim"\n}\n`),
  'invalid (id "5", 1004)': (i) => encoder.encode(`{"id":"${i}","name":"Monstera"}`),
};

checkAgreement();

/** @type {Map<string, number[]>} */
const results = new Map();
let sink = 0;
const names = Object.keys(contenders);
for (const [body, make] of Object.entries(BODIES)) {
  const bodies = Array.from({ length: POOL }, (_, i) => make(i));
  for (let round = 0; round < ROUNDS; round++) {
    // Each round starts with another contender, so that none always runs first.
    for (let k = 0; k < names.length; k++) {
      const name = /** @type {string} */ (names[(k + round) % names.length]);
      const parse = /** @type {(bytes: Uint8Array) => unknown} */ (contenders[name]);
      const start = performance.now();
      for (let i = 0; i < CALLS; i++) if (parse(/** @type {Uint8Array} */ (bodies[i & (POOL - 1)])) !== undefined) sink++;
      const ns = ((performance.now() - start) * 1e6) / CALLS;
      if (round > 0) results.set(`${body}\t${name}`, [...(results.get(`${body}\t${name}`) ?? []), ns]);
    }
  }
}
if (sink === 0) throw new Error('nothing was parsed');

const runtime = 'Bun' in globalThis ? `Bun ${process.versions.bun}` : 'Deno' in globalThis ? `Deno ${process.versions.deno}` : `Node ${process.version}`;
console.log(`${runtime}: ns per call, median (lowest to highest) over ${ROUNDS - 1} rounds of ${CALLS} calls`);
for (const [key, values] of results) {
  const sorted = values.sort((a, b) => a - b);
  const [body, name] = key.split('\t');
  const median = /** @type {number} */ (sorted[sorted.length >> 1]);
  console.log(
    `${String(body).padEnd(30)} ${String(name).padEnd(14)} ${median.toFixed(0).padStart(5)} (${/** @type {number} */ (sorted[0]).toFixed(0)} to ${/** @type {number} */ (sorted[sorted.length - 1]).toFixed(0)})`,
  );
}

/**
 * Refuses to time a parser that disagrees: on the bodies above, on near-misses and on
 * random bytes (a seeded generator, the same on every runtime), `parseNewPlant` must fail
 * exactly where the strict decoder refuses the bytes, and the `before` parser, when given,
 * must answer exactly as it does.
 */
function checkAgreement() {
  let seed = 0x2545f491;
  const random = (/** @type {number} */ n) => {
    seed ^= seed << 13;
    seed ^= seed >>> 17;
    seed ^= seed << 5;
    return (seed >>> 0) % n;
  };
  const pieces = [
    '{',
    '}',
    '"id"',
    '"name"',
    '"tag"',
    ':',
    ',',
    ' ',
    '\n',
    '"a"',
    '"é"',
    '"\\u0069d"',
    '5',
    '-0',
    '1.0',
    '1e2',
    '9223372036854775808',
    '"',
    '\\',
    '\ufeff',
  ];
  /** @type {Uint8Array[]} */
  const samples = [];
  for (const make of Object.values(BODIES)) samples.push(make(7));
  for (let n = 0; n < 20_000; n++) {
    if (n % 2 === 0) {
      samples.push(Uint8Array.from({ length: random(24) }, () => (random(3) === 0 ? random(256) : 0x20 + random(0x5f))));
    } else {
      let text = '';
      for (let k = random(12); k > 0; k--) text += pieces[random(pieces.length)];
      const bytes = encoder.encode(text);
      if (bytes.length > 0 && random(4) === 0) bytes[random(bytes.length)] = 0x80 + random(0x80);
      samples.push(bytes);
    }
  }
  for (const bytes of samples) {
    const answer = /** @type {{ ok: boolean, error?: { message: string } }} */ (parseNewPlant(bytes));
    let decodes = true;
    try {
      strict.decode(bytes);
    } catch {
      decodes = false;
    }
    const refused = !answer.ok && answer.error?.message.startsWith('body is not valid UTF-8');
    if (refused === decodes) throw new Error(`parseNewPlant and the strict decoder disagree on bytes ${bytes.join(',')}`);
    if (contenders['before'] !== undefined && !sameValue(answer, contenders['before'](bytes))) {
      throw new Error(`parseNewPlant and --before disagree on bytes ${bytes.join(',')}`);
    }
  }
}

/**
 * Deep equality of plain data: objects (own keys in order), strings, numbers, bigints, booleans.
 * @returns {boolean}
 */
function sameValue(/** @type {unknown} */ a, /** @type {unknown} */ b) {
  if (typeof a !== 'object' || a === null || typeof b !== 'object' || b === null) return Object.is(a, b);
  const left = /** @type {Record<string, unknown>} */ (a);
  const right = /** @type {Record<string, unknown>} */ (b);
  const keys = Object.keys(left);
  if (JSON.stringify(keys) !== JSON.stringify(Object.keys(right))) return false;
  return keys.every((key) => sameValue(left[key], right[key]));
}
