// Runs on Node, as a process of its own (`node offered-load.ts '<OfferedLoad as JSON>'` prints the
// answers as JSON; Node 24 runs the TypeScript as it is) or imported: a load of creates and health
// probes on 127.0.0.1 from many kept-alive clients, bounded in time and in clients, that stops itself.
import { connect, type Socket } from 'node:net';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { CONFORMANCE_TOKEN } from '@plant-store/testing';

/** One answer (or its absence) of an {@link offerLoad}. */
export interface Answer {
  /** `create` for `POST /plants`, `healthz` for the probe. */
  readonly kind: 'create' | 'healthz';
  /** The create's id (its name is `p<id>`); 0 for a probe. */
  readonly id: number;
  /** When the request was written, in ms since the epoch (`performance.timeOrigin + performance.now()`), comparable across processes. */
  readonly at: number;
  /** From the request's write to the end of its answer, in ms. */
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
  /** How long each client waits after an answer before its next create; a 503 or 429 waits its `Retry-After` (and up to as long again) instead. */
  readonly pauseMs: number;
  readonly seconds: number;
  /** The first create's id; the next ones count up. */
  readonly firstId: number;
  /** An answer slower than this counts as none (status 0). */
  readonly timeoutMs: number;
  /**
   * The clients' first creates are spread evenly over this many ms from the
   * start (default: one pause), so that the load reaches its full rate at the
   * end of it rather than in one burst of every client at once.
   */
  readonly rampMs?: number;
  /** A `GET /healthz` every this many ms, on a connection of its own. */
  readonly probeEveryMs?: number;
}

/**
 * `clients` clients creating plants with fresh ids for `seconds`: each
 * sends a create, waits for its answer, pauses `pauseMs` (or the
 * `Retry-After` of a refusal, with jitter, as a well-behaved client does) and sends the
 * next, so that together they would send `clients × 1000 / pauseMs`
 * creates a second to a server that answered at once; a probe of
 * `/healthz` goes on the side. Resolves with every answer once every
 * client has its last one (or its timeout).
 *
 * The clients write requests and read answers on raw sockets (one write
 * each way, the answer framed by its Content-Length, which every answer
 * of the server has), so that the generator's own work, which shares the
 * machine, adds as little as it can to the latencies it measures.
 */
export async function offerLoad(load: OfferedLoad): Promise<Answer[]> {
  const url = new URL(load.baseUrl);
  const port = Number(url.port);
  const answers = new AnswerLog();
  // Every client connects, and has its connection taken up by the server with one unmeasured
  // probe, before the load starts: what is measured is the answers on open connections, not a
  // thousand handshakes at once overflowing the server's listen backlog.
  const connections = Array.from({ length: load.clients + (load.probeEveryMs === undefined ? 0 : 1) }, () => new Connection(url.hostname, port));
  await Promise.all(connections.map((connection) => connection.connected));
  await Promise.all(connections.map((connection) => connection.exchange('healthz', 0, load.timeoutMs)));
  const start = performance.now();
  const end = start + load.seconds * 1000;
  let nextId = load.firstId;
  const client = async (kind: Answer['kind'], first: Connection, index: number) => {
    let connection: Connection | undefined = first;
    // The clients start one after another, evenly over the ramp (or one pause), as clients
    // that are not in step would, rather than all in the same instant.
    if (kind === 'create') await new Promise((resolve) => setTimeout(resolve, (index * (load.rampMs ?? load.pauseMs)) / load.clients));
    while (performance.now() < end) {
      connection ??= new Connection(url.hostname, port);
      const answer = await connection.exchange(kind, kind === 'create' ? nextId++ : 0, load.timeoutMs);
      answers.record(answer);
      // A connection that failed, timed out or was told to close is not used again.
      if (answer.status === 0 || connection.closing) {
        connection.close();
        connection = undefined;
      }
      // A refused client waits its Retry-After and a random part of it again, as clients that
      // back off with jitter do: those refused together do not all come back together.
      const wait =
        kind === 'healthz' ? load.probeEveryMs! : answer.retryAfter === undefined ? load.pauseMs : Number(answer.retryAfter) * 1000 * (1 + Math.random());
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, Math.min(wait, end - performance.now()))));
    }
    connection?.close();
  };
  const running = connections.map((connection, index) => client(index < load.clients ? 'create' : 'healthz', connection, index));
  await Promise.all(running);
  return answers.all();
}

/**
 * The answers of a run, field by field in arrays of numbers: the generator
 * holds a few hundred thousand of them, and as objects they would grow its
 * heap until a full garbage collection paused it, adding its pause to every
 * answer then in flight.
 */
class AnswerLog {
  readonly #fields: number[][] = [[], [], [], [], [], [], []];

  record(answer: Answer): void {
    const [kinds, ids, ats, mss, statuses, retryAfters, errors] = this.#fields as [number[], number[], number[], number[], number[], number[], number[]];
    kinds.push(answer.kind === 'create' ? 0 : 1);
    ids.push(answer.id);
    ats.push(answer.at);
    mss.push(answer.ms);
    statuses.push(answer.status);
    retryAfters.push(answer.retryAfter === undefined ? Number.NaN : Number(answer.retryAfter));
    errors.push(answer.error ?? Number.NaN);
  }

  all(): Answer[] {
    const [kinds, ids, ats, mss, statuses, retryAfters, errors] = this.#fields as [number[], number[], number[], number[], number[], number[], number[]];
    return kinds.map((kind, i) => ({
      kind: kind === 0 ? 'create' : 'healthz',
      id: ids[i]!,
      at: ats[i]!,
      ms: mss[i]!,
      status: statuses[i]!,
      retryAfter: Number.isNaN(retryAfters[i]) ? undefined : String(retryAfters[i]),
      error: Number.isNaN(errors[i]) ? undefined : errors[i],
    }));
  }
}

const HEAD_END = '\r\n\r\n';

/** A header's value in a lowercased head, trimmed; undefined when absent. */
function headerOf(head: string, name: string): string | undefined {
  const at = head.indexOf(`\r\n${name}:`);
  if (at === -1) return undefined;
  const end = head.indexOf('\r\n', at + 2);
  return head.slice(at + name.length + 3, end === -1 ? undefined : end).trim();
}

/** One kept-alive connection, one exchange at a time. */
class Connection {
  readonly #socket: Socket;
  /** Whether the last answer said `Connection: close`. */
  closing = false;
  #received = '';
  #onData: (() => void) | undefined;
  #failed = false;
  /** Settles once the connection is open, or failed (its first exchange then answers status 0). */
  readonly connected: Promise<void>;

  constructor(host: string, port: number) {
    this.#socket = connect({ host, port, noDelay: true });
    this.connected = new Promise((resolve) => {
      this.#socket.once('connect', resolve);
      this.#socket.once('close', resolve);
    });
    this.#socket.setEncoding('latin1');
    this.#socket.on('data', (chunk: string) => {
      this.#received += chunk;
      this.#onData?.();
    });
    const fail = () => {
      this.#failed = true;
      this.#onData?.();
    };
    this.#socket.on('error', fail);
    this.#socket.on('close', fail);
  }

  exchange(kind: Answer['kind'], id: number, timeoutMs: number): Promise<Answer> {
    const body = `{"id":${id},"name":"p${id}"}`;
    const request =
      kind === 'create'
        ? `POST /plants HTTP/1.1\r\nhost: 127.0.0.1\r\nauthorization: Bearer ${CONFORMANCE_TOKEN}\r\ncontent-type: application/json\r\ncontent-length: ${body.length}\r\n\r\n${body}`
        : 'GET /healthz HTTP/1.1\r\nhost: 127.0.0.1\r\n\r\n';
    const started = performance.now();
    return new Promise((resolve) => {
      const settle = (status: number, retryAfter?: string, error?: number) => {
        clearTimeout(timer);
        this.#onData = undefined;
        resolve({ kind, id: kind === 'create' ? id : 0, at: performance.timeOrigin + started, ms: performance.now() - started, status, retryAfter, error });
      };
      const timer = setTimeout(() => settle(0), timeoutMs);
      this.#onData = () => {
        const parsed = this.#take();
        if (parsed !== undefined) settle(parsed.status, parsed.retryAfter, parsed.error);
        else if (this.#failed) settle(0);
      };
      if (this.#failed) settle(0);
      else this.#socket.write(request);
    });
  }

  /** The whole answer at the front of what was received, taken off it; undefined while part of it is still to come. */
  #take(): { status: number; retryAfter: string | undefined; error: number | undefined } | undefined {
    const headEnd = this.#received.indexOf(HEAD_END);
    if (headEnd === -1) return undefined;
    // Found by search rather than split into a map: the generator shares the machine with the
    // server, and its own work per answer counts in every latency it measures.
    const head = this.#received.slice(0, headEnd).toLowerCase();
    const bodyStart = headEnd + HEAD_END.length;
    const bodyEnd = bodyStart + Number(headerOf(head, 'content-length') ?? 0);
    if (this.#received.length < bodyEnd) return undefined;
    const body = this.#received.slice(bodyStart, bodyEnd);
    this.#received = this.#received.slice(bodyEnd);
    // `HTTP/1.1 200 OK`: the status is the three digits after the version.
    const status = Number(head.slice(9, 12));
    this.closing = headerOf(head, 'connection') === 'close';
    return { status, retryAfter: headerOf(head, 'retry-after'), error: status === 200 ? undefined : (JSON.parse(body) as { error?: number }).error };
  }

  close(): void {
    this.#socket.destroy();
  }
}

/** The `p`-th percentile (0 to 100) of `values`, nearest rank; NaN when there are none. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

/** How late the generator's own event loop ran while it offered the load, in ms: its lateness is in every time it measured. */
export interface GeneratorDelay {
  readonly p99Ms: number;
  readonly maxMs: number;
}

// As a process of its own, pinned to a core apart from the server's (see offerLoadApart in
// latency/overload-run.test.ts): the load as JSON in, the answers as JSON out, and its own
// event-loop delay ({@link GeneratorDelay}) as one JSON line on stderr.
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const delay = monitorEventLoopDelay({ resolution: 5 });
  delay.enable();
  const answers = await offerLoad(JSON.parse(process.argv[2]!) as OfferedLoad);
  delay.disable();
  process.stdout.write(JSON.stringify(answers));
  const generatorDelay: GeneratorDelay = { p99Ms: delay.percentile(99) / 1e6, maxMs: delay.max / 1e6 };
  process.stderr.write(`${JSON.stringify({ generatorDelay })}\n`);
}
