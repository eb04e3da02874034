// Runs in vitest on Node 20; starts bare Bun and bare Deno (runtime-tests/quirks/bare-server.ts, no Plant Store
// code). One canary per runtime quirk the server works around: each expects the quirk on the runtime as
// installed, and fails, naming what to delete, once the runtime no longer has it. The records themselves are
// packages/server/src/<runtime>/QUIRKS.md; this is KNOWN_DIFFERENCES (differential-corpus.ts) for runtimes.
import { connect } from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runtime, runtimeVersion, spawnListening, type SpawnedServer } from './runtimes.ts';

/** One runtime quirk the server works around, as packages/server/src/<runtime>/QUIRKS.md records it. */
interface Quirk {
  readonly runtime: 'Bun' | 'Deno';
  /** The version the quirk was last seen on (runtime-tests/package.json pins it). */
  readonly seenOn: string;
  readonly upstream: string;
  /** What to delete or change once the quirk is gone. */
  readonly deletionSet: string;
}

const QUIRKS = {
  'bun-no-request-timeout': {
    runtime: 'Bun',
    seenOn: '1.4.5',
    upstream: 'https://bun.com/docs/api/http (Bun.serve has idleTimeout only; see oven-sh/bun#33612)',
    deletionSet:
      'packages/server/src/bun/with-request-deadline.ts and its export from src/bun.ts; in src/bun/run-bun.ts REQUEST_TIMEOUT_MS and the withRequestDeadline call; ' +
      "the whenIdle option of src/fetch/create-draining-fetch.ts; runtime-tests/hardening-deadline-server.ts and hardening.test.ts's 'request deadline (withRequestDeadline…)' block",
  },
  'bun-idle-timer-wheel': {
    runtime: 'Bun',
    seenOn: '1.4.5',
    upstream: 'https://github.com/oven-sh/bun/pull/33610',
    deletionSet:
      "packages/server/src/bun/run-bun.ts: IDLE_TIMEOUT_S's 4 s margin (35 → 31) and the words 'on a 4 s timer wheel, so up to 4 s early'; the same allowance in the Bun idle-connection bounds of runtime-tests",
  },
  'deno-serve-no-timeouts': {
    runtime: 'Deno',
    seenOn: '2.9.6',
    upstream: 'https://github.com/denoland/deno/pull/34172 (Deno.serve: keep-alive only; no headers or request timeout)',
    deletionSet:
      "packages/server/src/deno/run-deno.ts serving through node:http (serveStandalone) may become Deno.serve; with it go src/deno/_watch-accepting.ts and _watch-shared-accepting.ts (node:net's accept loop) unless Deno.serve's has the same EMFILE quirk",
  },
} as const satisfies Record<string, Quirk>;

type QuirkName = keyof typeof QUIRKS;

/** The message a canary fails with once its quirk is gone. */
function gone(name: QuirkName, seen: string): string {
  const quirk = QUIRKS[name];
  return `${quirk.runtime} quirk '${name}' (seen on ${quirk.seenOn}, ${quirk.upstream}) is gone on ${seen}: delete ${quirk.deletionSet}, and its record in packages/server/src/${quirk.runtime.toLowerCase()}/QUIRKS.md`;
}

interface Watched {
  /** Everything the server sent. */
  readonly received: string;
  /** Milliseconds from the first byte sent until the server closed the connection; undefined if it did not within the watch. */
  readonly closedAfterMs: number | undefined;
}

/** Sends `first` (then one more body byte every 500 ms when `trickle`), and watches what comes back until the server closes or `watchMs` pass. */
function watch(baseUrl: string, first: string, watchMs: number, trickle = false): Promise<Watched> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve) => {
    const socket = connect(Number(port), hostname);
    let received = '';
    let closedAfterMs: number | undefined;
    const started = performance.now();
    const drip = trickle ? setInterval(() => socket.writable && socket.write('x'), 500) : undefined;
    socket.on('data', (chunk) => (received += chunk.toString()));
    socket.on('error', () => {});
    const done = () => {
      clearTimeout(timer);
      clearInterval(drip);
      socket.destroy();
      resolve({ received, closedAfterMs });
    };
    // Done when the server closes, or after watchMs.
    socket.on('close', () => {
      closedAfterMs ??= performance.now() - started;
      done();
    });
    const timer = setTimeout(done, watchMs);
    socket.write(first);
  });
}

const SCRIPT = fileURLToPath(new URL('quirks/bare-server.ts', import.meta.url));
const STALLING_HEAD = 'POST /upload HTTP/1.1\r\nHost: x\r\nContent-Length: 100000\r\n\r\nx';

function startBare(name: 'Bun' | 'Deno', env: Record<string, string> = {}): Promise<SpawnedServer> {
  const binary = runtime(name).binary;
  const args = name === 'Bun' ? [SCRIPT] : ['run', '--allow-net', SCRIPT];
  return spawnListening(`bare ${name}`, binary, args, env);
}

describe('runtime quirks the server works around are still there (packages/server/src/*/QUIRKS.md)', () => {
  describe('Bun', () => {
    let server: SpawnedServer;
    let version: string;
    beforeAll(async () => {
      version = `Bun ${runtimeVersion(runtime('Bun'))}`;
      // A 4 s idle timeout: one period of Bun's timer wheel, so the wheel's early cut shows within seconds.
      server = await startBare('Bun', { QUIRK_IDLE_TIMEOUT_S: '4' });
    });
    afterAll(async () => {
      await server?.close();
    });

    it('bun-no-request-timeout: a body that keeps trickling is neither cut nor answered, whatever request timeout is asked', async () => {
      // Bytes keep coming (so the idle timeout never fires): only a request or body timeout could end it.
      const result = await watch(server.baseUrl, STALLING_HEAD, 3_000, true);
      expect({ received: result.received, closed: result.closedAfterMs !== undefined }, gone('bun-no-request-timeout', version)).toEqual({
        received: '',
        closed: false,
      });
    });

    it('bun-idle-timer-wheel: an idle connection is closed well before idleTimeout (4 s here)', async () => {
      // Two connections 2 s apart sit at opposite phases of the 4 s wheel: one of them is cut 2 s early or more.
      const request = 'GET / HTTP/1.1\r\nHost: x\r\n\r\n';
      const first = watch(server.baseUrl, request, 6_000);
      await new Promise((resolve) => setTimeout(resolve, 2_000));
      const second = watch(server.baseUrl, request, 6_000);
      const closes = (await Promise.all([first, second])).map((result) => result.closedAfterMs ?? Infinity);
      expect(Math.min(...closes), gone('bun-idle-timer-wheel', version)).toBeLessThan(3_500);
    });
  });

  describe('Deno', () => {
    let server: SpawnedServer;
    let version: string;
    beforeAll(async () => {
      version = runtimeVersion(runtime('Deno'));
      server = await startBare('Deno');
    });
    afterAll(async () => {
      await server?.close();
    });

    it('deno-serve-no-timeouts: Deno.serve neither cuts nor answers a request whose head never ends', async () => {
      // Node's headersTimeout would answer 408; Deno.serve has no such option and waits.
      const result = await watch(server.baseUrl, 'POST /upload HTTP/1.1\r\nHost: x\r\n', 3_000);
      expect({ received: result.received, closed: result.closedAfterMs !== undefined }, gone('deno-serve-no-timeouts', version)).toEqual({
        received: '',
        closed: false,
      });
    });
  });
});
