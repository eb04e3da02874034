// BENCHMARKS.md and its chart, from one run of `pnpm bench`.
import { cpus, totalmem } from 'node:os';

/**
 * One contender's line in the table: medians over rounds.
 * @typedef {object} Row
 * @property {string} runtime
 * @property {string} name
 * @property {boolean} baseline whether it is its runtime's hand-written baseline
 * @property {string} [against] the contender its ratios are taken against, when not the runtime's baseline
 * @property {number} rps
 * @property {number | undefined} ratio req/s over the baseline's (median of per-round ratios); undefined without a baseline
 * @property {[number, number] | undefined} ratioRange the lowest and highest per-round ratio
 * @property {number} p50Ms
 * @property {number} p99Ms
 * @property {number | undefined} p99Ratio p99 over the baseline's; undefined without a baseline
 * @property {number} peakRssMiB
 * @property {number} non200
 * @property {'memory' | 'sqlite' | 'postgres' | 'pgbouncer'} [store] the store of a store row (`pgbouncer`: PostgreSQL through PgBouncer)
 * @property {string} [memoryName] the row of the same server on the memory store, which a store row is compared with
 * @property {number} [storeRatio] req/s over the same server on the memory store (median of rounds)
 * @property {[number, number]} [storeRatioRange] the lowest and highest of those per-round ratios
 * @property {string} [peer] the peer of the same runtime a Plant Store row is held to
 * @property {number} [peerRatio] req/s over the peer's (median of per-round ratios)
 * @property {[number, number]} [peerRatioRange] the lowest and highest of those per-round ratios
 */
/**
 * One contender's line in the in-process table: medians over rounds.
 * @typedef {object} InProcessRow
 * @property {string} runtime
 * @property {string} name
 * @property {boolean} baseline whether it is a hand-written baseline
 * @property {number} ns nanoseconds per create
 * @property {[number, number]} nsRange the lowest and highest per-round cost
 * @property {number | undefined} ratio the baseline's cost over this one's (median of per-round ratios); undefined for a baseline
 * @property {[number, number] | undefined} ratioRange the lowest and highest per-round ratio
 */
/** @typedef {{ name: string, opsPerSecond: number, meanNs: number }} MicroResult what bench/micro.mjs prints, per case */
/** @typedef {{ plants: number, addedBytesPerPlant: number, stringBytesPerPlant: number, totalBytesPerPlant: number }} MemoryResult what bench/memory.mjs prints */
/**
 * @typedef {object} ReportInput
 * @property {Row[]} rows
 * @property {Record<string, string>} versions
 * @property {number} rounds
 * @property {number} warmup seconds
 * @property {number} duration seconds
 * @property {number} connections
 * @property {number} minutes
 * @property {InProcessRow[]} inProcess
 * @property {MicroResult[]} micro
 * @property {MemoryResult} memory
 */

/** The in-process row of the hand-written contender that calls Plant Store's own checks (bench/servers/checks-logic.mjs). */
export const CHECKS_ROW = "hand-written with Plant Store's checks (the core's functions, none of its structure)";

/** @type {(value: number | undefined, digits: number) => string} */
const fixed = (value, digits) => (value === undefined ? '–' : value.toFixed(digits));

/** @param {Row[]} rows */
function chart(rows) {
  const width = 900;
  const barHeight = 22;
  const labelWidth = 420;
  const top = 40;
  const max = Math.max(...rows.map((row) => row.rps));
  /** @type {Record<string, string>} */
  const colours = { 'Node 22': '#4a9a48', 'Node 24': '#3c873a', 'Node 26': '#2b6a2a', Bun: '#c77d2b', Deno: '#2b5fc7' };
  const bars = rows.map((row, i) => {
    const y = top + i * (barHeight + 6);
    const length = ((width - labelWidth - 90) * row.rps) / max;
    const name = `${row.runtime} · ${row.name}`.replace(/&/g, '&amp;').replace(/</g, '&lt;');
    return [
      `<text x="${labelWidth - 8}" y="${y + 15}" text-anchor="end" font-size="12">${name}</text>`,
      `<rect x="${labelWidth}" y="${y}" width="${length.toFixed(1)}" height="${barHeight}" fill="${colours[row.runtime] ?? '#777'}"${row.baseline ? ' stroke="#000" stroke-width="1.5"' : ''}/>`,
      `<text x="${(labelWidth + length + 6).toFixed(1)}" y="${y + 15}" font-size="12">${Math.round(row.rps).toLocaleString('en-US')}</text>`,
    ].join('');
  });
  const height = top + rows.length * (barHeight + 6) + 20;
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="sans-serif">`,
    `<rect width="100%" height="100%" fill="#fff"/>`,
    `<text x="${width / 2}" y="22" text-anchor="middle" font-size="15" font-weight="bold">Valid creates per second (median of rounds; outlined: hand-written baselines)</text>`,
    ...bars,
    '</svg>',
    '',
  ].join('\n');
}

/** The heading of the decisions that say what each row is held to, which a run of the in-process table alone also rewrites. */
export const DECISIONS_HEADING = '## What each row is held to';

/**
 * The decisions of issue 29 (the per-create cost), which say what each row is
 * compared with and what it should reach.
 * @returns {string[]}
 */
export function renderDecisions() {
  return [
    DECISIONS_HEADING,
    '',
    "1. **Deno standalone stays on Deno's `node:http`**: its headers, request and keep-alive timeouts and the Error bodies of the requests it refuses are worth more than raw speed, and `Deno.serve` still has no timeout option (denoland/deno#34172, measured again on Deno 2.9.6; the canary `deno-serve-no-timeouts` in runtime-tests/quirks.test.ts fails once it has one, and switching back is then a new issue). Its yardstick is the lean `node:http` server on Deno, not `Deno.serve`: at least 0.95 of its req/s, and a p99 at most 1.2 times its own wherever that is steady. The library on `Deno.serve` (adapter-fetch, what a Deno program embedding Plant Store runs) is held to the lean `Deno.serve` handler.",
    '2. **adapter-fetch on @whatwg-node/server is held to at least 0.95 of a lean Fetch handler on the same bridge**, not 1.0: both pay the bridge, and Plant Store does strictly more.',
    "3. **On this 2-core machine the in-process table is the measure of the library's own cost**; the wrk table stays as a second view, with its spread. Goals there: adapter-node at least 0.95 of the hand-written `node:http` listener on every tested Node line (22, 24, 26); adapter-fetch at least 0.85 of the hand-written Fetch handler on Bun and 0.95 on Deno; the hand-written function with Plant Store's checks at least 0.97 on every runtime; the @whatwg-node bridge at least 0.95; the standalone `serve()` within 0.03 of adapter-node; the JWT row, with a token seen before, at least 0.80 of adapter-node's (the static-token row). The metrics and traces rows show what those features cost and have no goal of their own. Durable stores: SQLite at least 0.6 and PostgreSQL at least 0.3 of the same server on the memory store.",
    "4. **Against the peers, in the same run and doing the same work** (each first passing the same behaviour check): the Node standalone server (adapter-node) at least the req/s of Fastify 5 on the same Node, the Bun standalone server at least Elysia's on Bun, and Plant Store's Fetch handler on `Deno.serve` at least Hono's on `Deno.serve`: a median ratio of at least 1.00 each, round by round, shown with its range in the peers table.",
    '',
  ];
}

/** The Node lines measured, as their rows name them (bench/run.mjs finds their binaries). */
export const NODE_RUNTIMES = ['Node 22', 'Node 24', 'Node 26'];

/**
 * The goal of an in-process row, from decision 3: the least "× baseline" it
 * should reach, or, for `serve()`, how far below adapter-node's it may be, or,
 * for the JWT row, the share of another row's "× baseline" it should reach.
 * @type {Record<string, { atLeast: number } | { within: number, of: string } | { ofAtLeast: number, of: string }>}
 */
const IN_PROCESS_GOALS = {
  ...Object.fromEntries(
    NODE_RUNTIMES.flatMap((node) => [
      [`${node} Plant Store adapter-node`, { atLeast: 0.95 }],
      [`${node} ${CHECKS_ROW}`, { atLeast: 0.97 }],
      [`${node} Plant Store standalone serve()`, { within: 0.03, of: 'Plant Store adapter-node' }],
      [`${node} Plant Store adapter-fetch on @whatwg-node/server`, { atLeast: 0.95 }],
      [`${node} Plant Store adapter-node, JWT bearer (RS256, key cached, token seen before)`, { ofAtLeast: 0.8, of: 'Plant Store adapter-node' }],
    ]),
  ),
  [`Bun ${CHECKS_ROW}`]: { atLeast: 0.97 },
  'Bun Plant Store adapter-fetch': { atLeast: 0.85 },
  [`Deno ${CHECKS_ROW}`]: { atLeast: 0.97 },
  'Deno Plant Store adapter-fetch': { atLeast: 0.95 },
};

/**
 * An in-process row's goal and whether its median meets it, as two cells.
 * @param {InProcessRow} row
 * @param {InProcessRow[]} rows
 * @returns {[string, string]}
 */
function inProcessGoal(row, rows) {
  const goal = IN_PROCESS_GOALS[`${row.runtime} ${row.name}`];
  if (goal === undefined || row.ratio === undefined) return ['–', '–'];
  if ('atLeast' in goal) return [`≥ ${goal.atLeast.toFixed(2)}`, row.ratio >= goal.atLeast ? 'yes' : 'no'];
  const other = rows.find((each) => each.runtime === row.runtime && each.name === goal.of);
  if ('ofAtLeast' in goal) {
    if (other?.ratio === undefined) return [`≥ ${goal.ofAtLeast.toFixed(2)} × ${goal.of}`, '–'];
    const least = goal.ofAtLeast * other.ratio;
    return [`≥ ${least.toFixed(2)} (${goal.ofAtLeast.toFixed(2)} × ${goal.of})`, row.ratio >= least - 1e-9 ? 'yes' : 'no'];
  }
  if (other?.ratio === undefined) return [`within ${goal.within.toFixed(2)} of ${goal.of}`, '–'];
  return [`≥ ${(other.ratio - goal.within).toFixed(2)} (${goal.of} − ${goal.within.toFixed(2)})`, row.ratio >= other.ratio - goal.within - 1e-9 ? 'yes' : 'no'];
}

/** The heading that starts the in-process section, which a run of that table alone replaces. */
export const IN_PROCESS_HEADING = '## Cost per create in one process (no sockets, no wrk)';

/**
 * The in-process section: its heading, what it measures, and its table,
 * ending with a blank line.
 * @param {InProcessRow[]} inProcess
 * @param {number} rounds
 * @param {string} [alone] when the table was measured in a run of its own, that run's words for it
 * @returns {string[]}
 */
export function renderInProcessSection(inProcess, rounds, alone) {
  return [
    IN_PROCESS_HEADING,
    '',
    `What each contender's own code costs per valid create, apart from the kernel's network path and wrk's share of the machine, which take most of each request's time in the table above and blur it on a small machine ([\`bench/in-process.mjs\`](bench/in-process.mjs)). On Node, requests go through Node's own HTTP server (its parser, \`IncomingMessage\`, \`ServerResponse\`) as raw bytes on in-memory sockets, 50 connections with one request in flight each; on Bun and Deno, the Fetch handler is called with the runtime's own \`Request\`s, built beforehand with the Content-Length a server's requests carry and their body as bytes, as a server's requests have it (a body given as a string let Deno's \`request.text()\` hand the string back undecoded, a shortcut no served request has, which until 2026-11-26 made the Deno baseline look about 1 µs cheaper per create). Each measurement is a fresh process pinned to core 0: 60,000 creates of warm-up, then the fastest of 10 batches of 20,000, timed in the process's own CPU time (since 2026-11-26; wall-clock time before), so that other work taking core 0 from it is not counted; what such work still adds (the caches it evicts) comes in bursts longer than a batch. ${rounds} rounds, interleaved as above; "× baseline" is the median over rounds of the baseline's cost over the contender's in the same round (higher is faster, as above). Plant Store runs with request ids, as the baselines; "standalone serve()" adds what the standalone Node server has (its timeouts, \`/healthz\`, \`/readyz\`, the docs page, the drain check). "Hand-written with Plant Store's checks" ([\`bench/servers/checks-logic.mjs\`](bench/servers/checks-logic.mjs)) calls the core's own functions (the bearer credential and \`staticTokens\`, the media type, \`parseNewPlant\` with its strict UTF-8 and exact int64 id, the memory store, the request id) from one hand-written function per request, reading the body as its runtime's baseline does (on Bun and Deno with \`request.bytes()\`, which strict UTF-8 needs): its distance from the baseline is what the contract's own work costs, and Plant Store's distance from it is what Plant Store's structure (its exchange of steps, its adapters' request objects, the answer callback) costs.`,
    ...(alone === undefined ? [] : ['', alone]),
    '',
    '| Runtime | Contender | ns per create | range | × baseline | × baseline, range | goal (median) | met |',
    '|---|---|---:|---:|---:|---:|---|---|',
    ...inProcess.map(
      (row) =>
        `| ${row.runtime} | ${row.baseline ? `**${row.name}**` : row.name} | ${Math.round(row.ns).toLocaleString('en-US')} | ${Math.round(row.nsRange[0]).toLocaleString('en-US')}–${Math.round(row.nsRange[1]).toLocaleString('en-US')} | ${fixed(row.ratio, 2)} | ${row.ratioRange ? `${fixed(row.ratioRange[0], 2)}–${fixed(row.ratioRange[1], 2)}` : '–'} | ${inProcessGoal(row, inProcess).join(' | ')} |`,
    ),
    '',
  ];
}

/**
 * The goal of a wrk row (decisions 1 and 3), by runtime and name: the least
 * "× baseline" (against the row's own yardstick) its median should reach.
 * @type {Record<string, number>}
 */
const WRK_GOALS = {
  'Deno Plant Store standalone (node:http on Deno)': 0.95,
};

/**
 * A wrk row's goal and whether it is met, as two cells: its own goal, or,
 * for a durable store's row, the least "× memory" decision 3 asks of it.
 * @param {Row} row
 * @returns {[string, string]}
 */
function wrkGoal(row) {
  const atLeast = WRK_GOALS[`${row.runtime} ${row.name}`];
  if (atLeast !== undefined && row.ratio !== undefined) return [`≥ ${atLeast.toFixed(2)}`, row.ratio >= atLeast ? 'yes' : 'no'];
  const storeAtLeast = row.store === 'sqlite' ? 0.6 : row.store === 'postgres' || row.store === 'pgbouncer' ? 0.3 : undefined;
  if (storeAtLeast !== undefined && row.storeRatio !== undefined)
    return [`≥ ${storeAtLeast.toFixed(2)} × memory`, row.storeRatio >= storeAtLeast ? 'yes' : 'no'];
  return ['–', '–'];
}

/** @param {ReportInput} input */
export function renderReport({ rows, versions, rounds, warmup, duration, connections, minutes, inProcess, micro, memory }) {
  const table = [
    '| Runtime | Contender | req/s | × baseline | × baseline, range | p50 ms | p99 ms | p99 × baseline | peak RSS MiB | non-200 | goal (median) | met |',
    '|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---|---|',
    ...rows.map(
      (row) =>
        `| ${row.runtime} | ${row.baseline ? `**${row.name}**` : row.against ? `${row.name} (× ${row.against})` : row.name} | ${Math.round(row.rps).toLocaleString('en-US')} | ${fixed(row.ratio, 2)} | ${row.ratioRange ? `${fixed(row.ratioRange[0], 2)}–${fixed(row.ratioRange[1], 2)}` : '–'} | ${fixed(row.p50Ms, 2)} | ${fixed(row.p99Ms, 2)} | ${fixed(row.p99Ratio, 2)} | ${fixed(row.peakRssMiB, 0)} | ${row.non200} | ${wrkGoal(row).join(' | ')} |`,
    ),
  ];
  const storeRows = rows.filter((row) => row.store !== undefined && row.store !== 'memory');
  const peerRows = rows.filter((row) => row.peer !== undefined);
  // Each store row under the same server's memory row, runtime by runtime.
  const memoryRows = rows.filter((row) => storeRows.some((store) => store.runtime === row.runtime && store.memoryName === row.name));
  const storeTable = [
    '| Runtime | Server | Store | creates/s | × memory (median) | × memory (range over rounds) | p50 ms | p99 ms |',
    '|---|---|---|---:|---:|---:|---:|---:|',
    ...memoryRows.flatMap((memoryRow) => [
      `| ${memoryRow.runtime} | ${memoryRow.name} | memory | ${Math.round(memoryRow.rps).toLocaleString('en-US')} | 1.00 | – | ${fixed(memoryRow.p50Ms, 2)} | ${fixed(memoryRow.p99Ms, 2)} |`,
      ...storeRows
        .filter((row) => row.runtime === memoryRow.runtime && row.memoryName === memoryRow.name)
        .map(
          (row) =>
            `| ${row.runtime} | ${memoryRow.name} | ${row.name.replace(`${memoryRow.name} + `, '')} | ${Math.round(row.rps).toLocaleString('en-US')} | ${fixed(row.storeRatio, 2)} | ${fixed(row.storeRatioRange?.[0], 2)}–${fixed(row.storeRatioRange?.[1], 2)} | ${fixed(row.p50Ms, 2)} | ${fixed(row.p99Ms, 2)} |`,
        ),
    ]),
  ];
  const microTable = [
    '| Case | ns per call | calls/s |',
    '|---|---:|---:|',
    ...micro.map((m) => `| ${m.name} | ${Math.round(m.meanNs).toLocaleString('en-US')} | ${Math.round(m.opsPerSecond).toLocaleString('en-US')} |`),
  ];
  const cpu = cpus()[0]?.model ?? 'unknown';
  const markdown = [
    '# Benchmarks',
    '',
    'Produced by `npx --yes pnpm@10.34.9 bench` (`bench/run.mjs`); this file and `bench/throughput.svg` are its output.',
    '',
    '## Machine and versions',
    '',
    `- ${cpus().length} cores (${cpu}), ${(totalmem() / 2 ** 30).toFixed(0)} GiB`,
    ...Object.entries(versions).map(([name, version]) => `- ${name}: ${version}`),
    '',
    '## Method',
    '',
    `- Every contender does the same work: bearer token check, media type, JSON body, field validation, insert-if-absent (in memory unless the row names a store), JSON answer. Each first passes a behaviour check (401, 400, 200, replay 200, 409) or is left out.`,
    "- The baselines ([`bench/servers/baseline-logic.mjs`](bench/servers/baseline-logic.mjs), with [`baseline-node.mjs`](bench/servers/baseline-node.mjs) and [`baseline-fetch.mjs`](bench/servers/baseline-fetch.mjs)) do that work the cheapest honest way: the token by `startsWith`, a length check and a constant-time XOR loop over its characters (no hashing, as Plant Store), the body by `data`/`end` or `request.text()` with the 1 MiB limit, `JSON.parse` and plain checks, a `Map`, and the `x-request-id` every standalone answer carries (the request's own when sane, else `crypto.randomUUID()`).",
    `- Load: wrk, ${connections} connections, 2 threads, valid creates with unique ids (\`bench/create.lua\`: a per-thread counter), against 127.0.0.1. The server is pinned to core 0 and wrk to core 1 (\`taskset\`).`,
    `- Each measurement starts a fresh server: ${warmup} s warm-up, then ${duration} s measured. ${rounds} rounds, interleaved: every contender once per round, in the listed order in odd rounds and the reverse in even ones, so that a drift of the machine within a round favours no contender. Medians over rounds.`,
    '- "× baseline" is the median over rounds of the contender\'s req/s divided by its runtime\'s hand-written baseline in the same round (bold rows), or by the contender the row names (Plant Store\'s Fetch adapter on @whatwg-node/server against a lean Fetch handler on the same bridge; both answer with the bridge\'s own `Response`, which it writes without a stream). "p99 × baseline" likewise for p99 latency.',
    '- Plant Store runs with the access log off (`PLANT_STORE_ACCESS_LOG=off`) except in the row that says so.',
    '- Deno: the standalone server runs `node:http` (Deno\'s own), for the headers, request and keep-alive timeouts `Deno.serve` lacks; its ratios (and its SQLite rows\') are taken against the lean `node:http` server on Deno, its yardstick (decision 1 below). "Plant Store adapter-fetch on Deno.serve" is the library as a Deno program embedding it serves it ([`bench/servers/plant-store-deno-serve.mjs`](bench/servers/plant-store-deno-serve.mjs)).',
    '- Bun: "Plant Store standalone (Bun.serve)" is the standalone server, with its 30 s request deadline and graceful drain around the handler; "Plant Store adapter-fetch on Bun.serve" is the library as a Bun program embedding it serves it ([`bench/servers/plant-store-bun-serve.mjs`](bench/servers/plant-store-bun-serve.mjs)).',
    `- This run took ${minutes.toFixed(1)} minutes.`,
    '',
    ...renderDecisions(),
    '## Throughput and latency',
    '',
    ...table,
    '',
    '![Valid creates per second by contender](bench/throughput.svg)',
    '',
    ...(peerRows.length === 0
      ? []
      : [
          '## Against the peers (decision 4)',
          '',
          'Each Plant Store row over its peer on the same runtime, round by round, from the table above (higher is faster).',
          '',
          '| Runtime | Plant Store | Peer | × peer (median) | × peer, range | goal (median) | met |',
          '|---|---|---|---:|---:|---|---|',
          ...peerRows.map(
            (row) =>
              `| ${row.runtime} | ${row.name} | ${row.peer} | ${fixed(row.peerRatio, 2)} | ${fixed(row.peerRatioRange?.[0], 2)}–${fixed(row.peerRatioRange?.[1], 2)} | ≥ 1.00 | ${row.peerRatio !== undefined && row.peerRatio >= 1 ? 'yes' : 'no'} |`,
          ),
          '',
        ]),
    ...(storeRows.length === 0
      ? []
      : [
          '## Stores (the same standalone server on each store)',
          '',
          "Creates per second through each runtime's standalone server with each store, measured in the same rounds as the table above. SQLite is a fresh file per start with `synchronous=FULL`: every 200 is on disk (creates that arrive together share one commit and one sync). PostgreSQL is an embedded server sharing the machine's cores with the server and wrk; creates that arrive together share one statement and one commit; each start finds an empty `plants` table. \"Through PgBouncer\" is Debian's PgBouncer in transaction mode in front of the same server, configured by [`docs/snippets/pgbouncer.ini`](docs/snippets/pgbouncer.ini) (20 server connections; each server process opens up to 10 for creates and 1 for reads), also on both cores. The two-process rows run on both cores (`PLANT_STORE_WORKERS=2`), which they share with wrk on this machine; their peak RSS is that of the process that starts and supervises them, which serves nothing.",
          '',
          ...storeTable,
          '',
        ]),
    ...renderInProcessSection(inProcess, rounds),
    '## Core, without HTTP (tinybench, Node 24)',
    '',
    ...microTable,
    '',
    '## Memory of the memory store',
    '',
    `${memory.plants.toLocaleString('en-US')} plants with a 10-character name and an 8-character tag: ${memory.addedBytesPerPlant.toFixed(1)} bytes per plant beyond its two strings (map entry, key, plant object); with the strings (${memory.stringBytesPerPlant} bytes as V8 one-byte strings) ${memory.totalBytesPerPlant.toFixed(1)} bytes per plant.`,
    '',
  ].join('\n');
  return { markdown, svg: chart(rows) };
}
