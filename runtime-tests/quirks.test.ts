// Runs in vitest on Node 24; starts bare Bun and bare Deno (runtime-tests/quirks/bare-server.ts and bare-accept.ts,
// no Plant Store code) and a bare workerd through miniflare (a Worker of a few lines, no node:http front). One
// canary per runtime quirk the server works around: each expects the quirk on the runtime as installed, and
// fails, naming what to delete, once the runtime no longer has it. The records themselves are
// packages/server/src/<runtime>/QUIRKS.md; this is KNOWN_DIFFERENCES (differential-corpus.ts) for runtimes.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, renameSync, symlinkSync } from 'node:fs';
import { createServer } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { Miniflare, type MiniflareOptions } from 'miniflare';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runtime, runtimeVersion, runToExit, spawnListening, temporaryDirectories, type SpawnedServer } from './runtimes.ts';
import { heldConnections } from './support/held-connections.ts';
import { workerdOutlivesKilledParent } from './support/killed-parent.ts';
import { childPids, commandOf, isRunning, processRssMiB } from './support/process-memory.ts';
import { rapidReset } from './support/rapid-reset.ts';
import { createTestAuthority } from './support/test-certificates.ts';
import { until } from './support/until.ts';
import { canMountFaultFs, mountFaultFs } from './support/fault-fs.ts';

/** One runtime quirk the server works around, as packages/server/src/<runtime>/QUIRKS.md records it. */
interface Quirk {
  readonly runtime: 'Bun' | 'Deno' | 'workerd';
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
  'bun-pipelined-behind-pending': {
    runtime: 'Bun',
    seenOn: '1.4.5',
    upstream: 'https://github.com/oven-sh/bun/pull/38128 (Bun.serve closes the connection when a request arrives behind a pending answer)',
    deletionSet:
      "docs/contract.md's known difference on pipelining behind a pending answer, and the Bun branch of 'half-closed and pipelined creates' in runtime-tests/hardening.test.ts (expect [200, 200] on Bun too)",
  },
  'bun-no-write-timeout': {
    runtime: 'Bun',
    seenOn: '1.4.5',
    upstream:
      'https://bun.com/docs/api/http (Bun.serve takes idleTimeout only; its idle timer also cuts a stalled answer: oven-sh/bun#41602 would spare one still read)',
    deletionSet:
      'once Bun has a write timeout: pass PLANT_STORE_WRITE_TIMEOUT_MS to it in packages/server/src/bun/run-bun.ts instead of the onAnswered that calls server.timeout, drop MAX_IDLE_TIMEOUT_S there and the onAnswered option of src/bun/with-request-deadline.ts, the Bun figures of runtime-tests/slow-readers.test.ts, the Bun wording of PLANT_STORE_WRITE_TIMEOUT_MS in docs/standalone.md, docs/operations.md and docs/contract.md, and /large-timed, /large-stream-erroring and stallErroring of runtime-tests/quirks/bare-server.ts with their canary; should server.timeout stop cutting a stalled answer, the standalone Bun server is back to its idle timeout for them: work around it again',
  },
  'bun-stream-drops-content-length': {
    runtime: 'Bun',
    seenOn: '1.4.5',
    upstream: 'https://github.com/oven-sh/bun/issues/10507 (Bun.serve sends a ReadableStream body chunked and drops the Content-Length given)',
    deletionSet:
      "nothing: give the paced docs files their Content-Length instead (packages/server/src/bun/paced-body.ts, with the adapter's SharedBody hook), and drop the chunked sentences of pacedBody's comment and of docs/contract.md's HEAD rule and 'Clients that do not read'",
  },
  'bun-reload-keeps-tls': {
    runtime: 'Bun',
    seenOn: '1.4.5',
    upstream: 'https://github.com/oven-sh/bun/issues/43815 (server.reload() takes tls and ignores it; Bun.serve has no setSecureContext) and #8872',
    deletionSet:
      "in packages/server/src/bun/run-bun.ts the second server setTls opens beside the first and the first one's retirement (retired, closingWhenRetired, the retiring map and its use in onAnswered, the stopping set, BunServer.port), and reusePort for TLS alone: setTls becomes server.reload({ tls }); runtime-tests/quirks/bare-tls-reload.ts and its canary; in runtime-tests/tls.test.ts the wait for one listener on the port and the resets allowed to Bun in the renewal, and listeners() in support/held-connections.ts; the Bun sentences of docs/standalone.md's renewal section and of docs/contract.md's TLS difference",
  },
  'deno-serve-no-timeouts': {
    runtime: 'Deno',
    seenOn: '2.9.6',
    upstream: 'https://github.com/denoland/deno/pull/34172 (Deno.serve: keep-alive only; no headers or request timeout)',
    deletionSet:
      "packages/server/src/deno/run-deno.ts serving through node:http (serveStandalone) may become Deno.serve; with it go src/deno/_watch-accepting.ts and _watch-shared-accepting.ts (node:net's accept loop) unless Deno.serve's has the same EMFILE quirk",
  },
  'deno-https-two-step-stalls': {
    runtime: 'Deno',
    seenOn: '2.9.6',
    upstream:
      'https://github.com/denoland/deno/issues/36821 (the nearest: node:http stalls a kept-alive connection after an early answer to a body left unread; no issue names this case, an answer ended after the body over node:https)',
    deletionSet:
      'the onDenoOverTls branch of writeResponse in packages/adapter-node/src/create-node-handler.ts and onDenoOverTls itself, and the Deno sentence on early answers over TLS in docs/contract.md and docs/standalone.md; runtime-tests/quirks/bare-https-two-step.ts and its canary',
  },
  'deno-http2-unbounded-memory': {
    runtime: 'Deno',
    seenOn: '2.9.6',
    upstream: 'no issue names it; the nearest is https://github.com/denoland/deno/pull/36044 (merged: node:http2 stream writes report backpressure)',
    deletionSet:
      "the process.versions['deno'] condition on http2 in packages/server/src/node-http/_serve-standalone.ts (HTTP/2 on Deno too), 'Deno' added to the runtimes of runtime-tests/http2.test.ts and conformance-http2.test.ts, the Deno sentences on HTTP/2 in docs/contract.md and docs/standalone.md, and runtime-tests/quirks/bare-http2-server.ts with its canary",
  },
  'deno-accept-after-emfile': {
    runtime: 'Deno',
    seenOn: '2.9.6',
    upstream: 'https://github.com/denoland/deno/issues/10148 (node:net stops accepting, silently, after an accept failed with EMFILE)',
    deletionSet:
      'packages/server/src/deno/_watch-accepting.ts and _watch-shared-accepting.ts, and the watch lines and the stopWatching() call in src/deno/run-deno.ts',
  },
  'deno-immediate-starves-io': {
    runtime: 'Deno',
    seenOn: '2.9.6',
    upstream:
      'https://github.com/denoland/deno/issues/31642 and #30328 (setImmediate reimplemented in 2.6.0; a chain of immediates runs ahead of network polling; no issue found for the starvation itself)',
    deletionSet:
      "the process.versions.deno condition on ServerResponse in packages/server/src/node-http/serve-node-http.ts (PacedResponse on Deno too, once measured there), the 'Node only' paragraph of PacedResponse's comment, and 'Not on Deno' in docs/contract.md's 'Clients that do not read'",
  },
  'workerd-http-server': {
    runtime: 'workerd',
    seenOn: '2026-11-17 (workerd 1.20261117.1 under miniflare 4.20260730.0), compatibility date 2026-07-01',
    upstream: "https://developers.cloudflare.com/workers/runtime-apis/request/ and workerd.capnp's HttpOptions (no upstream issue found)",
    deletionSet:
      'packages/server/src/workerd/_proxy-to-worker.ts and its test, and the front in src/workerd/run-workerd.ts (serveNodeHttp, createNodeHandler, unsafeDirectSockets): workerd would then listen on HOST:PORT',
  },
  'workerd-d1-memory': {
    runtime: 'workerd',
    seenOn: '2026-11-17 (workerd 1.20261117.1 under miniflare 4.20260730.0), compatibility date 2026-07-01',
    upstream:
      "no issue found for D1's local memory; https://github.com/cloudflare/workers-sdk/issues/14701 (workerd's heap in development) and pull/14702 (MINIFLARE_WORKERD_V8_FLAGS)",
    deletionSet:
      "packages/server/src/workerd/_workerd-v8-flags.ts and its test, the line that sets MINIFLARE_WORKERD_V8_FLAGS in src/workerd/run-workerd.ts with the sentence of its JSDoc on it, and the young-generation sentences of docs/standalone.md ('workerd behind its front'), docs/operations.md ('Memory on workerd') and docs/contract.md",
  },
  'workerd-outlives-front': {
    runtime: 'workerd',
    seenOn: '2026-11-17 (workerd 1.20261117.1 under miniflare 4.20260730.0), compatibility date 2026-07-01',
    upstream:
      'https://github.com/cloudflare/workers-sdk/issues/9193 and #9116 (orphaned workerd processes; miniflare stops workerd only from exit hooks, which a SIGKILL never runs)',
    deletionSet:
      "packages/server/src/workerd/_workerd-dying-with-front.ts, the lines that set MINIFLARE_WORKERD_PATH in src/workerd/run-workerd.ts, the `shims` line of packages/server/tsup.config.ts, the test 'ends workerd when its front is killed' in runtime-tests/hardening-workerd.test.ts with runtime-tests/support/killed-parent.ts (the canary's own use of it goes with the canary), and the sentence on a killed front in docs/standalone.md ('workerd behind its front')",
  },
  'miniflare-restart-gives-up': {
    runtime: 'workerd',
    seenOn: '2026-11-17 (workerd 1.20261117.1 under miniflare 4.20260730.0), compatibility date 2026-07-01',
    upstream:
      'https://github.com/cloudflare/workers-sdk/pull/14792 (miniflare starts workerd again after a crash; no issue found for a restart that itself fails, after which it never tries again)',
    deletionSet:
      "packages/server/src/workerd/_failed-restart-log.ts, the `log` option, `startAgain` and the FIRST_/MAX_RESTART_DELAY_MS constants in src/workerd/run-workerd.ts (`restart` stays for the D1 watch), the test 'starts workerd again when the one miniflare started after a crash dies as it starts' in runtime-tests/hardening-workerd.test.ts, and the sentence on it in docs/standalone.md and docs/contract.md",
  },
  'workerd-d1-stays-broken': {
    runtime: 'workerd',
    seenOn: '2026-11-17 (workerd 1.20261117.1 under miniflare 4.20260730.0), compatibility date 2026-07-01',
    upstream: "no issue found (miniflare's D1 is a Durable Object over SQLite in workerd)",
    deletionSet:
      'packages/server/src/workerd/_stuck-store-watch.ts and its test, onStoreAnswer in src/workerd/_proxy-to-worker.ts, the watch, probeReadiness and restart in src/workerd/run-workerd.ts, and the D1 sentences in docs/standalone.md and docs/contract.md (keep the workerd test of runtime-tests/sqlite-faults.test.ts)',
  },
  'workerd-request-scoped-io': {
    runtime: 'workerd',
    seenOn: '2026-11-17 (workerd 1.20261117.1 under miniflare 4.20260730.0), compatibility date 2026-07-01',
    upstream:
      'https://developers.cloudflare.com/workers/observability/errors/ ("Cannot perform I/O on behalf of a different request"; the handle_cross_request_promise_resolution flag), as designed; panva/jose#355 for the same in jose',
    deletionSet:
      'the requestScopedIo option of packages/auth-jwt (POLL_MS, ABANDONED_AFTER_MS, underWay and join in src/create-jwks-cache.ts, isWorkers and the option in src/jwt-authenticate.ts) with its tests, and runtime-tests/fixtures/jwt-worker.ts with the test of runtime-tests/auth-jwt.test.ts that runs it (keep the PLANT_STORE_JWKS_COOLDOWN=0 test)',
  },
  'workerd-d1-no-links': {
    runtime: 'workerd',
    seenOn: '2026-11-17 (workerd 1.20261117.1 under miniflare 4.20260730.0), compatibility date 2026-07-01',
    upstream:
      "no issue found (workerd opens a Durable Object's SQLite file through its own filesystem layer, which answers SQLITE_CANTOPEN for a symbolic link)",
    deletionSet:
      "refuseLinkedD1File and its call in packages/server/src/workerd/run-workerd.ts with the test 'workerd: a D1 database file that is a symbolic link stops the start' in runtime-tests/start-errors.test.ts, the lstat-only reading of statIdentity in src/workerd/_d1-file-watch.ts (it may follow links as the SQLite store's does), and the sentence on links in docs/standalone.md ('workerd behind its front')",
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

/** A raw connection to runtime-tests/quirks/bare-accept.ts, read line by line. */
interface LineSocket {
  /** Resolves with the first line (already received or still to come) matching `pattern`, or undefined after `withinMs`. */
  line(pattern: RegExp, withinMs: number): Promise<string | undefined>;
  /** Sends `command` and resolves with the answer matching `pattern`; rejects when none comes within 5 s. */
  ask(command: string, pattern: RegExp): Promise<string>;
  destroy(): void;
}

/** Connects to `baseUrl` and resolves once the connection is made (not necessarily accepted). */
function openLines(baseUrl: string): Promise<LineSocket> {
  const { hostname, port } = new URL(baseUrl);
  const socket = connect(Number(port), hostname);
  let buffered = '';
  const lines: string[] = [];
  const waiting = new Set<() => void>();
  socket.on('data', (chunk) => {
    buffered += chunk.toString();
    for (let end = buffered.indexOf('\n'); end >= 0; end = buffered.indexOf('\n')) {
      lines.push(buffered.slice(0, end));
      buffered = buffered.slice(end + 1);
    }
    for (const wake of waiting) wake();
  });
  const line = (pattern: RegExp, withinMs: number, from = 0) =>
    new Promise<string | undefined>((resolve) => {
      const check = () => {
        const found = lines.slice(from).find((candidate) => pattern.test(candidate));
        if (found === undefined) return;
        finish(found);
      };
      const finish = (found: string | undefined) => {
        clearTimeout(timer);
        waiting.delete(check);
        resolve(found);
      };
      const timer = setTimeout(() => finish(undefined), withinMs);
      waiting.add(check);
      check();
    });
  const lineSocket: LineSocket = {
    line: (pattern, withinMs) => line(pattern, withinMs),
    async ask(command, pattern) {
      const from = lines.length;
      socket.write(`${command}\n`);
      const answer = await line(pattern, 5_000, from);
      if (answer === undefined) throw new Error(`no answer to ${command} matching ${pattern} within 5 s; lines so far: ${lines.join(' | ')}`);
      return answer;
    },
    destroy: () => socket.destroy(),
  };
  return new Promise((resolve, reject) => {
    socket.on('error', reject);
    socket.once('connect', () => resolve(lineSocket));
  });
}

const SCRIPT = fileURLToPath(new URL('quirks/bare-server.ts', import.meta.url));
const ACCEPT_SCRIPT = fileURLToPath(new URL('quirks/bare-accept.ts', import.meta.url));
const IMMEDIATE_SCRIPT = fileURLToPath(new URL('quirks/immediate-chain.ts', import.meta.url));
const TLS_RELOAD_SCRIPT = fileURLToPath(new URL('quirks/bare-tls-reload.ts', import.meta.url));
const HTTPS_TWO_STEP_SCRIPT = fileURLToPath(new URL('quirks/bare-https-two-step.ts', import.meta.url));
const HTTP2_SCRIPT = fileURLToPath(new URL('quirks/bare-http2-server.ts', import.meta.url));
const MINIFLARE_SCRIPT = fileURLToPath(new URL('quirks/bare-miniflare.ts', import.meta.url));

/** What immediate-chain.ts measured on `binary`: echo round trips beside a setImmediate chain and a setTimeout(0) one. */
async function roundTripsBesideChains(binary: string, args: readonly string[]): Promise<{ immediate: number; timeout: number }> {
  const { code, stdout, stderr } = await runToExit(binary, [...args, IMMEDIATE_SCRIPT], { cwd: tmpdir(), killAfterMs: 20_000 });
  expect(code, stderr).toBe(0);
  return JSON.parse(stdout.trim().split('\n').at(-1)!) as { immediate: number; timeout: number };
}
/** util-linux's `prlimit`, to give bare Deno few descriptors, so that taking them all is quick whatever `ulimit -n` says. */
const prlimit = ['/usr/bin/prlimit', '/bin/prlimit'].find((path) => existsSync(path));
const STALLING_HEAD = 'POST /upload HTTP/1.1\r\nHost: x\r\nContent-Length: 100000\r\n\r\nx';

/**
 * Asks `baseUrl` for `path` and never reads the answer; resolves with when the
 * server let go of the connection (ms after it was asked, read from the
 * kernel's table: a client that never reads never sees the reset), or
 * undefined if it still held it after `watchMs`.
 */
async function watchUnread(baseUrl: string, path: string, watchMs: number): Promise<number | undefined> {
  const { hostname, port } = new URL(baseUrl);
  const socket = connect(Number(port), hostname);
  socket.on('error', () => {});
  socket.pause();
  await new Promise((resolve) => socket.once('connect', resolve));
  const started = performance.now();
  socket.write(`GET ${path} HTTP/1.1\r\nHost: x\r\n\r\n`);
  const ports = new Set([socket.localPort!]);
  try {
    await until(() => heldConnections(Number(port), ports) === 0 && heldConnections(Number(port), ports) === 0, watchMs, 'let go');
    return performance.now() - started;
  } catch {
    return undefined;
  } finally {
    socket.destroy();
  }
}

function startBare(name: 'Bun' | 'Deno', env: Record<string, string> = {}): Promise<SpawnedServer> {
  const binary = runtime(name).binary;
  const args = name === 'Bun' ? [SCRIPT] : ['run', '--allow-net', SCRIPT];
  return spawnListening(`bare ${name}`, binary, args, env);
}

/** `use` given a bare server of its own, which is stopped after it, whatever happened. */
async function withBare<T>(name: 'Bun' | 'Deno', env: Record<string, string>, use: (server: SpawnedServer) => Promise<T>): Promise<T> {
  const server = await startBare(name, env);
  try {
    return await use(server);
  } finally {
    await server.close();
  }
}

describe('runtime quirks the server works around are still there (packages/server/src/*/QUIRKS.md)', () => {
  // Each canary waits on Bun's timers, on its own connections or its own process: they wait side by side.
  describe.concurrent('Bun', () => {
    const tlsDirectory = temporaryDirectories('plant-store-quirk-tls-');
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

    it('bun-reload-keeps-tls: a server reloaded with another certificate still serves the first one to new connections', async () => {
      const authority = createTestAuthority(tlsDirectory());
      const [first, second] = [authority.leaf('first'), authority.leaf('second')];
      const { code, stdout, stderr } = await runToExit(runtime('Bun').binary, [TLS_RELOAD_SCRIPT], {
        cwd: tmpdir(),
        env: { QUIRK_FIRST_CERT: first.certPath, QUIRK_FIRST_KEY: first.keyPath, QUIRK_SECOND_CERT: second.certPath, QUIRK_SECOND_KEY: second.keyPath },
        killAfterMs: 20_000,
      });
      expect(code, stderr).toBe(0);
      const { served } = JSON.parse(stdout.trim().split('\n').at(-1)!) as { served: string };
      expect(served, gone('bun-reload-keeps-tls', version)).toBe('first');
    });
    it('bun-pipelined-behind-pending: two requests in one write, the first answered a turn later: neither is answered, the connection closes', async () => {
      // Node answers both, in order. The body of each is read whole before its answer is due.
      const request = (path: string) => `POST ${path} HTTP/1.1\r\nHost: x\r\nContent-Length: 4\r\n\r\nabcd`;
      const result = await watch(server.baseUrl, request('/later') + request('/later'), 3_000);
      expect({ received: result.received, closed: result.closedAfterMs !== undefined }, gone('bun-pipelined-behind-pending', version)).toEqual({
        received: '',
        closed: true,
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

    it('bun-stream-drops-content-length: a stream body with its Content-Length given is sent chunked, without it', async () => {
      const { received } = await watch(server.baseUrl, 'GET /streamed HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n', 3_000);
      const head = received.split('\r\n\r\n')[0]!.toLowerCase().split('\r\n');
      const framing = { chunked: head.includes('transfer-encoding: chunked'), declared: head.includes('content-length: 2') };
      // Answered at all: a server gone or refusing would pass the check below for the wrong reason.
      expect(head[0]).toBe('http/1.1 200 ok');
      expect(framing, gone('bun-stream-drops-content-length', version)).toEqual({ chunked: true, declared: false });
    });

    it(
      'bun-no-write-timeout: an answer its client never reads is held until the idle timeout (8 s here), not before, then cut',
      { timeout: 25_000 },
      async () => {
        // Its own server: an 8 s idle timeout cuts between 4 and 8 s (bun-idle-timer-wheel). Still held at 3 s:
        // Bun has no write timeout under that; cut by 16 s: the idle timeout still applies to a stalled answer (8 s more
        // than due: once, with 1,000-client tests of other files running beside it, 11 s was not enough).
        await withBare('Bun', { QUIRK_IDLE_TIMEOUT_S: '8' }, async (slow) => {
          const letGoAfterMs = await watchUnread(slow.baseUrl, '/large', 16_000);
          const held = { heldAtThreeSeconds: letGoAfterMs === undefined || letGoAfterMs > 3_000, cutWithinSixteenSeconds: letGoAfterMs !== undefined };
          expect(held, gone('bun-no-write-timeout', version)).toEqual({ heldAtThreeSeconds: true, cutWithinSixteenSeconds: true });
        });
      },
    );
    it(
      'bun-no-write-timeout: server.timeout(request, 2) cuts an answer its client never reads within 2 s and the 4 s wheel, where a stream body that errors itself does not (idle timeout 20 s here)',
      { timeout: 20_000 },
      async () => {
        // The standalone Bun server bounds stalled answers with server.timeout: should it stop cutting them, the canary
        // says so (bun/QUIRKS.md, bun-no-write-timeout). The stream body that errors itself once no slice was pulled
        // for 2 s is the handler's other handle on a stalled answer: Bun keeps the request pending, the connection held.
        await withBare('Bun', { QUIRK_IDLE_TIMEOUT_S: '20' }, async (slow) => {
          const [timed, erroring] = await Promise.all(['/large-timed', '/large-stream-erroring'].map((path) => watchUnread(slow.baseUrl, path, 8_000)));
          expect({ timedWithinEightSeconds: timed !== undefined }, gone('bun-no-write-timeout', version)).toEqual({ timedWithinEightSeconds: true });
          // Not the workaround's: a finding of the record, to correct there (nothing to delete) should Bun change it.
          expect(
            { erroringHeldAtEightSeconds: erroring === undefined },
            `Bun ${version} now cuts a stalled answer whose stream body errors itself: correct that finding in packages/server/src/bun/QUIRKS.md, bun-no-write-timeout`,
          ).toEqual({ erroringHeldAtEightSeconds: true });
        });
      },
    );
  });

  // One after another: the HTTP/2 canary's attack, whose memory it measures, runs in this process, and a fresh-clone
  // run with the Deno canaries side by side saw it reach +57 MiB, short of its +60 (+69 to +126 alone).
  describe('Deno', () => {
    const httpsDirectory = temporaryDirectories('plant-store-quirk-https-');
    const http2Directory = temporaryDirectories('plant-store-quirk-http2-');
    let server: SpawnedServer;
    let version: string;
    beforeAll(async () => {
      version = runtimeVersion(runtime('Deno'));
      server = await startBare('Deno');
    });
    afterAll(async () => {
      await server?.close();
    });

    it('deno-https-two-step-stalls: after an answer ended once the request body is in, node:https serves no other request on the connection', async () => {
      const authority = createTestAuthority(httpsDirectory());
      const pair = authority.leaf('localhost');
      const { code, stdout, stderr } = await runToExit(runtime('Deno').binary, ['run', '--allow-net', '--allow-env', '--allow-read', HTTPS_TWO_STEP_SCRIPT], {
        cwd: tmpdir(),
        env: { QUIRK_CERT: pair.certPath, QUIRK_KEY: pair.keyPath },
        killAfterMs: 20_000,
      });
      expect(code, stderr).toBe(0);
      const { statuses } = JSON.parse(stdout.trim().split('\n').at(-1)!) as { statuses: string[] };
      expect(statuses, gone('deno-https-two-step-stalls', version)).toEqual(['HTTP/1.1 401']);
    });

    it(
      'deno-http2-unbounded-memory: ten connections resetting 2,000 HTTP/2 streams each, sent away after 100 resets, take node:http2 to 60 MiB or more',
      { timeout: 60_000 },
      async () => {
        // The same bare server on Node 24 reaches +22 to +26 MiB under the same attack and keeps that; on Deno 2.9.6
        // it reached +69 to +126 MiB during the attack and held +99 to +236 once the attackers were gone.
        const authority = createTestAuthority(http2Directory());
        const pair = authority.leaf('localhost');
        const bare = await spawnListening('bare Deno node:http2', runtime('Deno').binary, ['run', '--allow-net', '--allow-env', '--allow-read', HTTP2_SCRIPT], {
          QUIRK_CERT: pair.certPath,
          QUIRK_KEY: pair.keyPath,
        });
        try {
          const pid = bare.child.pid!;
          const before = processRssMiB(pid);
          let peak = before;
          const attack = await rapidReset(
            bare.baseUrl.replace('127.0.0.1', 'localhost'),
            authority.ca,
            10,
            2_000,
            () => (peak = Math.max(peak, processRssMiB(pid))),
          );
          try {
            await until(() => heldConnections(Number(new URL(bare.baseUrl).port), attack.ports) === 0, 10_000, 'every attacking connection sent away');
          } finally {
            attack.destroy();
          }
          const after = processRssMiB(pid);
          console.log(
            JSON.stringify({
              quirk: 'deno-http2-unbounded-memory',
              attempted: attack.attempted,
              peakMiB: Math.round(peak - before),
              afterMiB: Math.round(after - before),
            }),
          );
          // A weak attack or a server gone would say nothing of the quirk.
          expect(attack.attempted).toBeGreaterThanOrEqual(1_000);
          expect(bare.child.exitCode).toBeNull();
          expect(Math.max(peak, after) - before, gone('deno-http2-unbounded-memory', version)).toBeGreaterThanOrEqual(60);
        } finally {
          await bare.close();
        }
      },
    );

    it('deno-serve-no-timeouts: Deno.serve neither cuts nor answers a request whose head never ends', async () => {
      // Node's headersTimeout would answer 408; Deno.serve has no such option and waits.
      const result = await watch(server.baseUrl, 'POST /upload HTTP/1.1\r\nHost: x\r\n', 3_000);
      expect({ received: result.received, closed: result.closedAfterMs !== undefined }, gone('deno-serve-no-timeouts', version)).toEqual({
        received: '',
        closed: false,
      });
    });

    it.runIf(prlimit)(
      'deno-accept-after-emfile: once one accept failed with EMFILE, node:net accepts nothing more, even with descriptors free again',
      { timeout: 30_000 },
      async () => {
        // Started with 256 descriptors; bare-accept.ts takes every free one itself once listening, on request.
        const bare = await spawnListening(
          'bare Deno (node:net, 256 descriptors)',
          prlimit!,
          ['--nofile=256:256', runtime('Deno').binary, 'run', '--allow-net', '--allow-read=/dev/null', ACCEPT_SCRIPT],
          {},
        );
        const opened: LineSocket[] = [];
        const open = async () => {
          const lines = await openLines(bare.baseUrl);
          opened.push(lines);
          return lines;
        };
        try {
          const control = await open();
          expect(await control.line(/^accepted /, 5_000)).toBe('accepted 1');
          // A round: take every descriptor, connect (the kernel completes the handshake; Deno's accept fails with
          // EMFILE), give the descriptors back, connect again. With the quirk neither connection is ever greeted.
          // Should Deno still read `free` before it tries that accept (bare-accept.ts waits one turn), it accepts
          // both: up to five rounds.
          const rounds: string[] = [];
          for (let round = 1; round <= 5 && !rounds.at(-1)?.endsWith('neither accepted in 3 s'); round++) {
            expect(await control.ask('exhaust', /^exhausted /)).toMatch(/^exhausted \d+ EMFILE$/);
            const during = await open();
            await control.ask('free', /^freed /);
            const after = await open();
            const greeted = await Promise.race([during.line(/^accepted /, 3_000), after.line(/^accepted /, 3_000)]);
            rounds.push(`round ${round}: ${greeted === undefined ? 'neither accepted in 3 s' : `greeted '${greeted}'`}`);
          }
          // Still running and answering on the connection it accepted first: not accepting is not a crash.
          expect(await control.ask('free', /^freed /)).toBe('freed 0');
          expect(bare.child.exitCode).toBeNull();
          expect(rounds.at(-1), gone('deno-accept-after-emfile', version) + `\n${rounds.join('\n')}`).toMatch(/neither accepted in 3 s$/);
        } finally {
          for (const lines of opened) lines.destroy();
          await bare.close();
        }
      },
    );

    it('deno-immediate-starves-io: beside a chain of setImmediate callbacks, a loopback echo gets almost no turn', { timeout: 30_000 }, async () => {
      // Node polls the network between immediates (about 1,300 round trips in 300 ms, a fourteenth of what a
      // setTimeout(0) chain leaves); Deno 2.9.6 about 24, against some 15,500 beside setTimeout(0).
      const node = await roundTripsBesideChains(runtime('Node 24').binary, ['--disable-warning=ExperimentalWarning']);
      expect(node.immediate * 100, `Node 24, the control: ${JSON.stringify(node)}`).toBeGreaterThan(node.timeout);
      const deno = await roundTripsBesideChains(runtime('Deno').binary, ['run', '--allow-net']);
      expect(deno.immediate * 100, gone('deno-immediate-starves-io', version) + `\n${JSON.stringify(deno)}`).toBeLessThan(deno.timeout);
    });
  });

  // One after another: a workerd canary finds its own workerd among this process's children as the one that was not
  // there before it started one.
  describe('workerd', () => {
    let bare: BareWorkerd | undefined;
    let version: string;
    const d1Directory = temporaryDirectories('plant-store-quirk-d1-');
    // Where each miniflare keeps its files (this process's and the killed one's), removed with the others: a miniflare
    // whose workerd died removes nothing when disposed.
    const miniflareTemporary = temporaryDirectories('plant-store-quirk-miniflare-');
    beforeAll(async () => {
      version = runtimeVersion(runtime('workerd'));
      bare = await startBareWorkerd(miniflareTemporary());
    });
    afterAll(async () => {
      await bare?.miniflare.dispose();
    });
    const baseUrl = () => bare!.baseUrl;

    it('workerd-http-server: answers malformed framing and an unknown method itself, with a plain-text 400 and 501', async () => {
      // Node answers 400 to both framings and to the method; the Worker never sees any of them.
      const answers: string[] = [];
      for (const request of [
        'POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\nhello!',
        'POST / HTTP/1.1\r\nHost: x\r\nContent-Length: +5\r\n\r\nhello',
        'FOO / HTTP/1.1\r\nHost: x\r\n\r\n',
      ]) {
        // workerd closes each of these connections after its answer; 5 s bounds the wait if it does not.
        const { received } = await watch(baseUrl(), request, 5_000);
        answers.push(`${received.split('\r\n')[0]} ${received.slice(received.indexOf('\r\n\r\n') + 4)}`);
      }
      // workerd 2026-07-30 answered both framings with a plain-text 500; 2026-11-17 with a plain-text 400.
      expect(answers, gone('workerd-http-server', version)).toEqual([
        'HTTP/1.1 400 Bad Request invalid content-length parsed',
        'HTTP/1.1 400 Bad Request invalid content-length parsed',
        'HTTP/1.1 501 Not Implemented ERROR: Unrecognized request method.',
      ]);
    });

    it('workerd-http-server: neither cuts nor answers a request whose head never ends', async () => {
      // The front's headersTimeout answers 408 (hardening-workerd.test.ts); workerd's HttpOptions has no such timeout.
      const result = await watch(baseUrl(), 'POST /upload HTTP/1.1\r\nHost: x\r\n', 3_000);
      expect({ received: result.received, closed: result.closedAfterMs !== undefined }, gone('workerd-http-server', version)).toEqual({
        received: '',
        closed: false,
      });
    });

    it(
      "workerd-d1-memory: with V8's defaults, workerd grows by at least 8 MiB past its size at 20,000 queries through a D1 binding, by 50,000",
      { timeout: 120_000 },
      async () => {
        const resident = await residentOverD1Queries(d1Directory(), miniflareTemporary(), 5);
        const figures = resident.map((each, batch) => `${(batch + 1) * 10}k ${each.toFixed(0)}`).join(', ');
        // The most it held after 20,000, not its size at 50,000: a sample can come just after a full collection
        // (seen once: 498 at 20,000, 526 at 40,000, 507 at 50,000). Seen: +15 to +51 MiB (a bound of 15 failed once by
        // a fraction: 496, 504, 494, 511); with run-workerd.ts's --max-semi-space-size=2 it levels off by 20,000, within
        // 2 MiB of its size there (runtime-tests/workerd-d1-memory.test.ts).
        console.log(`workerd-d1-memory: workerd resident MiB by D1 queries, V8's defaults: ${figures}`);
        const grown = Math.max(...resident.slice(2)) - resident[1]!;
        expect(grown, gone('workerd-d1-memory', version) + `\n${figures}`).toBeGreaterThanOrEqual(8);
      },
    );

    it.runIf(process.platform === 'linux')(
      'workerd-outlives-front: a workerd miniflare started runs on after the process that started it is killed (SIGKILL)',
      { timeout: 60_000 },
      async () => {
        const ranOn = await workerdOutlivesKilledParent(runtime('Node 24').binary, ['--disable-warning=ExperimentalWarning', MINIFLARE_SCRIPT], {
          cwd: tmpdir(),
          env: { TMPDIR: miniflareTemporary() },
          ready: /^ready$/m,
        });
        expect(ranOn, gone('workerd-outlives-front', version)).toBe(true);
      },
    );

    it.runIf(canMountFaultFs())(
      'workerd-d1-stays-broken: D1 whose writes failed (EROFS) still fails them for 5 s after the disk takes writes again',
      { timeout: 60_000 },
      async () => {
        const directory = d1Directory();
        const disk = await mountFaultFs(join(directory, 'disk'), join(directory, 'd1'));
        let miniflare: Miniflare | undefined;
        try {
          miniflare = inTemporary(
            miniflareTemporary(),
            () =>
              new Miniflare({
                modules: true,
                script: D1_WRITES_WORKER,
                compatibilityDate: '2026-07-01',
                d1Databases: ['DB'],
                d1Persist: join(directory, 'd1'),
              }),
          );
          await miniflare.ready;
          const write = async () => (await miniflare!.dispatchFetch('http://bare/')).text();
          expect(await write()).toBe('ok');
          // Writes on for a while first, as a server's are, then 2 s of EROFS under four writers at once.
          for (let i = 0; i < 50; i++) await Promise.all([write(), write(), write(), write()]);
          disk.fail('EROFS');
          const faultAt = Date.now();
          const during: string[] = [];
          while (Date.now() - faultAt < 2_000) during.push(...(await Promise.all([write(), write(), write(), write()])));
          expect(during.some((each) => each.startsWith('failed'))).toBe(true);
          disk.fail(undefined);
          const results: string[] = [];
          const started = Date.now();
          while (Date.now() - started < 5_000 && results.at(-1) !== 'ok') {
            results.push(await write());
            await new Promise((resolve) => setTimeout(resolve, 200));
          }
          expect(results.at(-1), gone('workerd-d1-stays-broken', version) + `\n${results.slice(0, 3).join('\n')}`).toMatch(/^failed/);
        } finally {
          await miniflare?.dispose().catch(() => {});
          await disk.unmount();
        }
      },
    );

    it('workerd-request-scoped-io: a fetch left running when its request has answered never ends, and a request awaiting it fails', async () => {
      const origin = createServer((_request, response) => response.end('done'));
      await new Promise<void>((resolve) => origin.listen(0, '127.0.0.1', resolve));
      const script = `
        let running; let state = 'none';
        export default { async fetch(request, env) {
          const { pathname } = new URL(request.url);
          if (pathname === '/start') { state = 'running'; running = fetch(env.ORIGIN).then(() => (state = 'ended'), () => (state = 'failed')); return new Response('started'); }
          if (pathname === '/join') { await running; return new Response('joined'); }
          return new Response(state);
        } };`;
      const { port } = origin.address() as AddressInfo;
      const miniflare = inTemporary(
        miniflareTemporary(),
        () => new Miniflare({ modules: true, script, compatibilityDate: '2026-07-01', bindings: { ORIGIN: `http://127.0.0.1:${port}/` } }),
      );
      try {
        const ask = async (path: string) => {
          const response = await miniflare.dispatchFetch(`http://bare${path}`);
          return `${response.status} ${(await response.text()).replace(/,.*$/s, '')}`;
        };
        expect(await ask('/start')).toBe('200 started');
        const joined = await ask('/join');
        // The origin answers at once: a fetch that still belonged to anything would end within milliseconds.
        const states: string[] = [];
        for (const started = Date.now(); Date.now() - started < 2_000;) {
          states.push(await ask('/state'));
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
        // Seen: '500 Error: This promise was created by a request that has since ended' (had the first request's context
        // still been open, workerd would have cancelled the second as hung: a 500 too).
        expect(
          { joined: joined.slice(0, 3), ended: states.filter((state) => state !== '200 running') },
          gone('workerd-request-scoped-io', version) + `\n${joined}`,
        ).toEqual({
          joined: '500',
          ended: [],
        });
      } finally {
        await miniflare.dispose();
        origin.close();
      }
    });

    it('workerd-d1-no-links: D1 whose database file is a symbolic link to it, moved elsewhere, cannot be written', { timeout: 60_000 }, async () => {
      const directory = d1Directory();
      const persist = join(directory, 'd1');
      const started = () =>
        inTemporary(
          miniflareTemporary(),
          () => new Miniflare({ modules: true, script: D1_WRITES_WORKER, compatibilityDate: '2026-07-01', d1Databases: ['DB'], d1Persist: persist }),
        );
      const write = async (miniflare: Miniflare) => {
        try {
          return await (await miniflare.dispatchFetch('http://bare/')).text();
        } finally {
          await miniflare.dispose();
        }
      };
      // The file D1 makes, then moved elsewhere with a link to it under its name.
      expect(await write(started())).toBe('ok');
      const files = join(persist, 'miniflare-D1DatabaseObject');
      const [name, ...others] = readdirSync(files).filter((entry) => entry.endsWith('.sqlite') && entry !== 'metadata.sqlite');
      expect(others).toEqual([]);
      mkdirSync(join(directory, 'elsewhere'));
      for (const suffix of ['', '-wal', '-shm']) {
        if (existsSync(join(files, `${name}${suffix}`))) renameSync(join(files, `${name}${suffix}`), join(directory, 'elsewhere', `${name}${suffix}`));
      }
      symlinkSync(join(directory, 'elsewhere', name!), join(files, name!));
      // Seen: 'failed: …', workerd logging "unable to open database file: SQLITE_CANTOPEN".
      expect(await write(started()), gone('workerd-d1-no-links', version)).toMatch(/^failed/);
    });

    it.runIf(process.platform === 'linux')(
      'miniflare-restart-gives-up: a workerd killed as miniflare starts it again after a crash is not started again',
      { timeout: 30_000 },
      async () => {
        const others = new Set(workerdChildPids());
        const doomed = await startBareWorkerd(miniflareTemporary());
        try {
          const [first] = workerdChildPids().filter((each) => !others.has(each));
          process.kill(first!, 'SIGKILL');
          // The workerd miniflare starts in its place, killed as soon as it is there.
          await until(() => workerdChildPids().some((each) => !others.has(each) && each !== first), 10_000, 'the workerd miniflare starts after the crash');
          const [second] = workerdChildPids().filter((each) => !others.has(each) && each !== first);
          process.kill(second!, 'SIGKILL');
          // miniflare gave up: no workerd of its own for 5 s (the front's own restart, run-workerd.ts, comes after 1 s).
          const started = Date.now();
          let third: number | undefined;
          while (third === undefined && Date.now() - started < 5_000) {
            [third] = workerdChildPids().filter((each) => !others.has(each) && each !== first && each !== second && isRunning(each));
            await new Promise((resolve) => setTimeout(resolve, 100));
          }
          expect(third, gone('miniflare-restart-gives-up', version)).toBeUndefined();
        } finally {
          await doomed.miniflare.dispose().catch(() => {});
        }
      },
    );

    it.runIf(prlimit)('workerd-http-server: the process exits once an accept fails with EMFILE', { timeout: 30_000 }, async () => {
      // A workerd of its own, since this one is meant to die: given 64 descriptors, then offered 200 connections.
      // The front (node:http) refuses what it cannot accept and goes on serving.
      const others = new Set(workerdChildPids());
      const doomed = await startBareWorkerd(miniflareTemporary());
      const sockets: Socket[] = [];
      try {
        // Its own workerd: the one child that was not there before (the largest pid need not be the newest: pids wrap).
        const [pid, ...more] = workerdChildPids().filter((each) => !others.has(each));
        expect({ pid, more }).toEqual({ pid: expect.any(Number), more: [] });
        execFileSync(prlimit!, ['--pid', String(pid!), '--nofile=64:64']);
        const { hostname, port } = new URL(doomed.baseUrl);
        for (let opened = 0; opened < 200; opened++) {
          const socket = connect(Number(port), hostname);
          socket.on('error', () => {});
          socket.write('GET / HTTP/1.1\r\nHost: x\r\n\r\n');
          sockets.push(socket);
        }
        // Rejects, naming what to delete, if workerd is still running after 15 s.
        await until(() => !isRunning(pid!), 15_000, gone('workerd-http-server', version));
      } finally {
        for (const socket of sockets) socket.destroy();
        await doomed.miniflare.dispose().catch(() => {});
      }
    });
  });
});

// A Worker of a few lines that writes one row through its D1 binding, and says whether it could.
const D1_WRITES_WORKER = `export default { async fetch(request, env) {
  try {
    await env.DB.prepare('CREATE TABLE IF NOT EXISTS t (x INTEGER)').run();
    await env.DB.prepare('INSERT INTO t VALUES (1)').run();
    return new Response('ok');
  } catch (error) {
    return new Response('failed: ' + error.message);
  }
} };`;

// A Worker of a few lines that runs `n` queries through its D1 binding, one after another (a request's queries; requests run side by side).
const D1_QUERIES_WORKER = `export default { async fetch(request, env) {
  const n = Number(new URL(request.url).searchParams.get('n'));
  for (let i = 0; i < n; i++) await env.DB.prepare('SELECT 1').first();
  return new Response(String(n));
} };`;

/**
 * The resident memory of a bare workerd, started through miniflare with V8's default flags, after each batch of
 * 10,000 queries its Worker ran through a D1 binding kept in `directory`, miniflare keeping its own files under `temporary`.
 */
async function residentOverD1Queries(directory: string, temporary: string, batches: number): Promise<number[]> {
  // miniflare hands this variable to workerd when it writes workerd's config: left out, V8's defaults.
  const given = process.env['MINIFLARE_WORKERD_V8_FLAGS'];
  const others = new Set(workerdChildPids());
  let miniflare: Miniflare | undefined;
  try {
    delete process.env['MINIFLARE_WORKERD_V8_FLAGS'];
    miniflare = inTemporary(
      temporary,
      () => new Miniflare({ modules: true, script: D1_QUERIES_WORKER, compatibilityDate: '2026-07-01', d1Databases: ['DB'], d1Persist: directory }),
    );
    await miniflare.ready;
    const [pid, ...more] = workerdChildPids().filter((each) => !others.has(each));
    expect({ pid, more }).toEqual({ pid: expect.any(Number), more: [] });
    const resident: number[] = [];
    for (let batch = 0; batch < batches; batch++) {
      // Ten requests of 1,000 queries at once: the same growth as one after another (+45 to +49 MiB past 20,000 by
      // 50,000, against +48 and +49; an idle machine), in 34 to 39 s where one at a time took 46 to 48.
      const parts = Array.from({ length: 10 }, async () => (await miniflare!.dispatchFetch('http://bare/?n=1000')).text());
      expect(await Promise.all(parts)).toEqual(Array.from({ length: 10 }, () => '1000'));
      resident.push(processRssMiB(pid!));
    }
    return resident;
  } finally {
    if (given === undefined) delete process.env['MINIFLARE_WORKERD_V8_FLAGS'];
    else process.env['MINIFLARE_WORKERD_V8_FLAGS'] = given;
    await miniflare?.dispose();
  }
}

/** A workerd started through miniflare as run-workerd.ts starts it, without the node:http front: workerd's own HTTP server straight to a Worker. */
interface BareWorkerd {
  readonly miniflare: Miniflare;
  readonly baseUrl: string;
}

/**
 * `make()`, with the temporary directory `os.tmpdir()` gives it (miniflare takes its own there when it is made) set to
 * `temporary`, then restored.
 */
function inTemporary<T>(temporary: string, make: () => T): T {
  const given = process.env['TMPDIR'];
  process.env['TMPDIR'] = temporary;
  try {
    return make();
  } finally {
    if (given === undefined) delete process.env['TMPDIR'];
    else process.env['TMPDIR'] = given;
  }
}

/** A bare workerd whose miniflare keeps its files under `temporary`. */
async function startBareWorkerd(temporary: string): Promise<BareWorkerd> {
  const options: MiniflareOptions & { handleRuntimeStdio(stdout: Readable, stderr: Readable): void } = {
    host: '127.0.0.1',
    port: 0,
    // workerd logs each malformed request with a stack; the canaries read the answers instead.
    handleRuntimeStdio: (stdout: Readable, stderr: Readable) => {
      stdout.resume();
      stderr.resume();
    },
    workers: [
      {
        name: 'bare',
        modules: true,
        script: 'export default { async fetch(request) { return new Response(`read ${(await request.text()).length}`); } };',
        compatibilityDate: '2026-07-01',
        unsafeDirectSockets: [{ host: '127.0.0.1', port: 0 }],
      },
    ],
  };
  const miniflare = inTemporary(temporary, () => new Miniflare(options));
  await miniflare.ready;
  return { miniflare, baseUrl: (await miniflare.unsafeGetDirectURL('bare')).href };
}

/** The pids of this process's `workerd` children (miniflare starts one per instance), from /proc. */
function workerdChildPids(): number[] {
  return childPids(process.pid).filter((pid) => commandOf(pid).startsWith('workerd'));
}
