// Runs anywhere (fetch only): requests to an rqlite cluster, each bounded in time, with failover between its nodes.
import { StoreTimeoutError } from '@plant-store/core';
import type { RqliteNode } from './parse-node-url.ts';

/** One request of the store: a path of rqlite's HTTP API, its query, and a JSON body for a POST. */
export interface RqliteRequest {
  readonly method: 'GET' | 'POST';
  /** E.g. `/db/execute`. */
  readonly path: string;
  /** Query parameters without the leading `?`, e.g. `level=strong`; `timeout` is added. */
  readonly query?: string;
  /** Sent as JSON: rqlite's array of parameterized statements. */
  readonly body?: unknown;
}

/** What a node answered with a 2xx status. */
export interface RqliteAnswer {
  readonly status: number;
  readonly text: string;
  /** The body read as JSON, for a request with a body (`/db/…`); undefined for others. */
  readonly json?: unknown;
  /** The node that answered (after any redirect), for messages. */
  readonly origin: string;
}

/** Options of {@link createRqliteClient}. */
export interface RqliteClientOptions {
  /** Most time one call may take, every node and retry included. */
  readonly timeoutMs: number;
  /** Most time one node is given before the next is tried, when there are several. */
  readonly attemptTimeoutMs: number;
  /** The `fetch` to use; the runtime's by default. */
  readonly fetch?: typeof fetch | undefined;
}

/** Sends requests to an rqlite cluster; see {@link createRqliteClient}. */
export interface RqliteClient {
  /**
   * Sends `request` to one node after another until one answers 2xx, by
   * `deadline` (a `performance.now()` time; default `timeoutMs` from now). Rejects at once on a 4xx (a request the cluster will refuse
   * wherever it goes: bad credentials, say), and with a `StoreTimeoutError`
   * when no node answered in time (its `cause` says what the last node did).
   */
  send(request: RqliteRequest, deadline?: number): Promise<RqliteAnswer>;
  /**
   * Asks each node once, in turn, and resolves with the first 2xx answer:
   * for a probe, which should say "no" at once rather than wait for an
   * election. Rejects with what the last node did.
   */
  sendOnce(request: RqliteRequest, deadline?: number): Promise<RqliteAnswer>;
}

/** A failure after which another node, or the same one a little later, may do better. */
class NodeFailure extends Error {
  constructor(message: string, options?: { cause: unknown }) {
    super(message, options);
    this.name = 'NodeFailure';
  }
}

/** Redirects followed in one attempt: rqlite forwards to the leader itself, so one is already unusual. */
const MOST_REDIRECTS = 3;
/** The first pause after every node failed, doubled up to {@link LONGEST_PAUSE_MS}: an election takes about a second. */
const FIRST_PAUSE_MS = 25;
const LONGEST_PAUSE_MS = 400;
/**
 * A retry with less time left than this is not started: it could only time
 * out, and its "did not answer within 1 ms" would hide what the nodes said.
 */
const LEAST_ATTEMPT_MS = 25;

/**
 * The cluster as the store sees it: its nodes, tried in turn. A network
 * error, a 5xx (rqlite answers 503 while it has no leader) or a redirect out
 * of the cluster moves on to the next node; after a round in which every node
 * failed, the store pauses briefly (doubling, at most 400 ms) and starts again,
 * until `timeoutMs` is spent. The node that last answered is asked first.
 *
 * Redirects are never followed by `fetch` (`redirect: 'manual'`): one is
 * followed here only to one of the configured nodes' origins (scheme, host and
 * port exactly), keeping the request's own path and query and sending that
 * node's credentials; one to anywhere else counts as that node's failure, and
 * nothing is sent there.
 *
 * @example
 * const client = createRqliteClient([parseNodeUrl('http://127.0.0.1:4001')], { timeoutMs: 4_500, attemptTimeoutMs: 2_000 });
 * const { text } = await client.send({ method: 'GET', path: '/readyz' });
 */
export function createRqliteClient(nodes: readonly RqliteNode[], options: RqliteClientOptions): RqliteClient {
  if (nodes.length === 0) throw new TypeError('createRqliteStore: `urls` must name at least one node');
  const { timeoutMs, attemptTimeoutMs } = options;
  const fetchFn = options.fetch ?? ((input: RequestInfo | URL, init?: RequestInit) => fetch(input, init));
  const byOrigin = new Map(nodes.map((node) => [node.origin, node]));
  let preferred = 0;

  /**
   * One node's answer to `request`, following redirects within the cluster,
   * within `limitMs`. A 2xx resolves; a 4xx rejects with a plain Error; what
   * another node may do better rejects with a {@link NodeFailure}.
   */
  async function attempt(first: RqliteNode, request: RqliteRequest, limitMs: number): Promise<RqliteAnswer> {
    const controller = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    // Raced as well as aborted: the call must end at its deadline even where a runtime's fetch ignores the signal.
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        controller.abort();
        reject(new NodeFailure(`${first.origin} did not answer within ${Math.round(limitMs)} ms`));
      }, limitMs);
    });
    const exchange = (async (): Promise<RqliteAnswer> => {
      const ends = performance.now() + limitMs;
      let node = first;
      for (let hop = 0; ; hop++) {
        // rqlite gives up on its own before the store does, rather than commit after the caller heard 503.
        const left = Math.max(1, Math.floor(ends - performance.now()));
        const query = `${request.query === undefined ? '' : `${request.query}&`}timeout=${left}ms`;
        const headers: Record<string, string> = { accept: 'application/json' };
        if (request.body !== undefined) headers['content-type'] = 'application/json';
        if (node.authorization !== undefined) headers['authorization'] = node.authorization;
        let response: Response;
        try {
          response = await fetchFn(`${node.origin}${request.path}?${query}`, {
            method: request.method,
            headers,
            ...(request.body === undefined ? {} : { body: JSON.stringify(request.body) }),
            redirect: 'manual',
            signal: controller.signal,
          });
        } catch (error) {
          throw new NodeFailure(`${node.origin} could not be reached: ${String((error as Error | undefined)?.message ?? error)}`, { cause: error });
        }
        if (response.status >= 300 && response.status < 400) {
          const location = response.headers.get('location');
          await discard(response);
          const target = location === null ? undefined : originOf(location, node.origin);
          const next = target === undefined ? undefined : byOrigin.get(target);
          if (next === undefined) {
            throw new NodeFailure(
              `${node.origin} redirected (${response.status}) to ${location === null ? 'nowhere' : `${target ?? 'an unreadable address'}`}, which is not one of the configured nodes; not followed`,
            );
          }
          if (hop >= MOST_REDIRECTS) throw new NodeFailure(`${first.origin}: more than ${MOST_REDIRECTS} redirects`);
          node = next;
          continue;
        }
        const text = await response.text().catch((error: unknown) => {
          throw new NodeFailure(`${node.origin} broke off its answer: ${String((error as Error | undefined)?.message ?? error)}`, { cause: error });
        });
        if (response.ok) {
          if (request.body === undefined) return { status: response.status, text, origin: node.origin };
          let json: unknown;
          try {
            json = JSON.parse(text);
          } catch (error) {
            // Not rqlite's answer (a proxy's page, say): another node may give one.
            throw new NodeFailure(`${node.origin} answered ${request.path} with something other than JSON: ${text.slice(0, 200)}`, { cause: error });
          }
          // A request-level error comes with 200: the node could not reach the leader, or lost it. Nothing says
          // whether a forwarded write was applied before that; trying again is safe, as a create finds its own row.
          const error = (json as { error?: unknown } | null)?.error;
          if (typeof error === 'string' && error !== '') throw new NodeFailure(`${node.origin} could not run ${request.path}: ${error}`);
          return { status: response.status, text, json, origin: node.origin };
        }
        const said = `${node.origin} answered ${response.status}: ${text.trim().slice(0, 200)}`;
        if (response.status >= 500) throw new NodeFailure(said);
        throw new Error(said);
      }
    })();
    exchange.catch(() => {});
    try {
      return await Promise.race([exchange, late]);
    } finally {
      clearTimeout(timer);
      controller.abort();
    }
  }

  return {
    async send(request, deadline = performance.now() + timeoutMs) {
      let pause = FIRST_PAUSE_MS;
      let last: unknown;
      for (;;) {
        for (let tried = 0; tried < nodes.length; tried++) {
          const index = (preferred + tried) % nodes.length;
          const left = deadline - performance.now();
          if (left <= 0 || (last !== undefined && left < LEAST_ATTEMPT_MS)) throw late(last);
          // With one node there is no other to try, so it has the whole time.
          const limit = nodes.length === 1 ? left : Math.min(left, attemptTimeoutMs);
          try {
            const answer = await attempt(nodes[index]!, request, limit);
            // The node that answered, the one a redirect led to included, is asked first next time.
            preferred = Math.max(
              0,
              nodes.findIndex((node) => node.origin === answer.origin),
            );
            return answer;
          } catch (error) {
            if (!(error instanceof NodeFailure)) throw error;
            last = error;
          }
        }
        const left = deadline - performance.now() - LEAST_ATTEMPT_MS;
        if (left <= 0) throw late(last);
        await new Promise((resolve) => setTimeout(resolve, Math.min(pause, left)));
        pause = Math.min(pause * 2, LONGEST_PAUSE_MS);
      }
    },
    async sendOnce(request, deadline = performance.now() + timeoutMs) {
      let last: unknown;
      for (let tried = 0; tried < nodes.length; tried++) {
        const index = (preferred + tried) % nodes.length;
        const left = deadline - performance.now();
        if (left <= 0) throw late(last);
        try {
          return await attempt(nodes[index]!, request, nodes.length === 1 ? left : Math.min(left, attemptTimeoutMs));
        } catch (error) {
          last = error;
        }
      }
      throw last;
    },
  };

  function late(cause: unknown): StoreTimeoutError {
    const error = new StoreTimeoutError(timeoutMs);
    // For onError: which node did what last. The client only ever gets the code.
    if (cause !== undefined) error.cause = cause;
    return error;
  }
}

/** The origin `location` points to, read against the node that sent it; undefined when it is no URL. */
function originOf(location: string, base: string): string | undefined {
  try {
    return new URL(location, base).origin;
  } catch {
    return undefined;
  }
}

/** Lets the connection go back to the pool without reading a body nobody needs. */
async function discard(response: Response): Promise<void> {
  try {
    await response.body?.cancel();
  } catch {
    // Already gone: nothing to release.
  }
}
