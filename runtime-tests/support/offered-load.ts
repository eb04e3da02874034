// Runs in the test process (Node): a load of creates and health probes on 127.0.0.1 from many
// kept-alive clients, bounded in time and in clients, that stops itself.
import { Agent, request } from 'node:http';
import { performance } from 'node:perf_hooks';
import { CONFORMANCE_TOKEN } from '@plant-store/testing';

/** One answer (or its absence) of an {@link offerLoad}. */
export interface Answer {
  /** `create` for `POST /plants`, `healthz` for the probe. */
  readonly kind: 'create' | 'healthz';
  /** The create's id (its name is `p<id>`); 0 for a probe. */
  readonly id: number;
  /** From the request's start to the end of its answer, in ms. */
  readonly ms: number;
  /** 0: no answer (an error, or none within the timeout). */
  readonly status: number;
  readonly retryAfter: string | undefined;
  /** The Error body's code, for an answer other than 200. */
  readonly error: number | undefined;
}

/** How to load a server: see {@link offerLoad}. */
export interface OfferedLoad {
  readonly baseUrl: string;
  /** Clients, each on a kept-alive connection of its own. */
  readonly clients: number;
  /** How long each client waits after an answer before its next create; a 503 or 429 waits `Retry-After` instead. */
  readonly pauseMs: number;
  readonly seconds: number;
  /** The first create's id; the next ones count up. */
  readonly firstId: number;
  /** An answer slower than this counts as none (status 0). */
  readonly timeoutMs: number;
  /** A `GET /healthz` every this many ms, on a connection of its own. */
  readonly probeEveryMs?: number;
}

const HEADERS = { authorization: `Bearer ${CONFORMANCE_TOKEN}`, 'content-type': 'application/json' };

/**
 * `clients` clients creating plants with fresh ids for `seconds`: each
 * sends a create, waits for its answer, pauses `pauseMs` (or the
 * `Retry-After` of a refusal, as a well-behaved client does) and sends the
 * next, so that together they would send `clients × 1000 / pauseMs`
 * creates a second to a server that answered at once; a probe of
 * `/healthz` goes on the side. Resolves with every answer once every
 * client has its last one (or its timeout).
 */
export async function offerLoad(load: OfferedLoad): Promise<Answer[]> {
  const url = new URL(load.baseUrl);
  const agent = new Agent({ keepAlive: true, maxSockets: load.clients });
  const probeAgent = new Agent({ keepAlive: true, maxSockets: 1 });
  const answers: Answer[] = [];
  const end = performance.now() + load.seconds * 1000;
  let nextId = load.firstId;
  const client = async (kind: Answer['kind']) => {
    while (performance.now() < end) {
      const answer = await one(url, kind, kind === 'create' ? nextId++ : 0, kind === 'create' ? agent : probeAgent, load.timeoutMs);
      answers.push(answer);
      const wait = kind === 'healthz' ? load.probeEveryMs! : answer.retryAfter === undefined ? load.pauseMs : Number(answer.retryAfter) * 1000;
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, Math.min(wait, end - performance.now()))));
    }
  };
  const running = Array.from({ length: load.clients }, () => client('create'));
  if (load.probeEveryMs !== undefined) running.push(client('healthz'));
  await Promise.all(running);
  agent.destroy();
  probeAgent.destroy();
  return answers;
}

function one(url: URL, kind: Answer['kind'], id: number, agent: Agent, timeoutMs: number): Promise<Answer> {
  const started = performance.now();
  return new Promise((resolve) => {
    let settled = false;
    const settle = (status: number, retryAfter?: string, error?: number) => {
      if (settled) return;
      settled = true;
      resolve({ kind, id, ms: performance.now() - started, status, retryAfter, error });
    };
    const body = kind === 'create' ? `{"id":${id},"name":"p${id}"}` : undefined;
    const req = request(
      {
        host: url.hostname,
        port: url.port,
        method: body === undefined ? 'GET' : 'POST',
        path: body === undefined ? '/healthz' : '/plants',
        headers: body === undefined ? {} : { ...HEADERS, 'content-length': String(body.length) },
        agent,
        timeout: timeoutMs,
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => {
          const status = res.statusCode ?? 0;
          const retryAfter = res.headers['retry-after'];
          settle(status, retryAfter, status === 200 ? undefined : (JSON.parse(text) as { error?: number }).error);
        });
        res.on('error', () => settle(0));
      },
    );
    req.on('timeout', () => {
      req.destroy();
      settle(0);
    });
    req.on('error', () => settle(0));
    req.end(body);
  });
}

/** The `p`-th percentile (0 to 100) of `values`, nearest rank; NaN when there are none. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}
