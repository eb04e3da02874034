import { writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CORPUS, KNOWN_DIFFERENCES, type CorpusEntry } from './differential-corpus.ts';
import { RUNTIMES, spawnServer, type SpawnedServer } from './runtimes.ts';

/**
 * Differential fuzzing of the standalone servers: every request of the corpus,
 * as raw bytes on a connection of its own, to Node 22, 24 and 26, Bun, Deno and
 * workerd. Every answer must be the contract's Error body or a Plant, and equal
 * Node 24's on what matters, unless KNOWN_DIFFERENCES says why not.
 */

/** How long one request may take before it counts as unanswered. */
const TIME_BOUND_MS = 3_000;
/** Requests in flight per server. */
const CONCURRENCY = 8;
const REFERENCE = 'Node 24';

/** The contract's status of every error code. */
const STATUS_OF_CODE: Readonly<Record<number, number>> = {
  1000: 400,
  1001: 400,
  1002: 400,
  1003: 400,
  1004: 400,
  1005: 400,
  1100: 401,
  1101: 401,
  1200: 404,
  1201: 405,
  1300: 409,
  1400: 413,
  1401: 415,
  1402: 408,
  1403: 431,
  1500: 500,
  1501: 503,
  1502: 507,
};

interface ParsedResponse {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  /** Latin1, one character per byte. */
  readonly body: string;
}

/**
 * Splits what a server sent into responses: any HTTP version, bodies framed by
 * Content-Length, chunked or the close. What cannot be read as a response is
 * left in `rest`; `complete` says whether the last response has all its body.
 */
function parseAll(received: string, head: boolean, closed: boolean): { responses: ParsedResponse[]; rest: string; complete: boolean } {
  const responses: ParsedResponse[] = [];
  let rest = received;
  let complete = true;
  for (;;) {
    const statusLine = /^HTTP\/\d(?:\.\d)? (\d{3})[^\r\n]*\r?\n/.exec(rest);
    if (statusLine === null) break;
    const end = rest.indexOf('\r\n\r\n');
    if (end < 0) {
      complete = false;
      break;
    }
    const headers: Record<string, string> = {};
    for (const line of rest.slice(statusLine[0].length, end).split('\r\n')) {
      if (line === '') continue;
      const colon = line.indexOf(':');
      const name = line.slice(0, colon).trim().toLowerCase();
      headers[name] = name in headers ? `${headers[name]}, ${line.slice(colon + 1).trim()}` : line.slice(colon + 1).trim();
    }
    const status = Number(statusLine[1]);
    let after = rest.slice(end + 4);
    let body = '';
    complete = true;
    if (status < 200 || status === 204 || status === 304 || head) {
      // No body.
    } else if (/chunked/i.test(headers['transfer-encoding'] ?? '')) {
      complete = false;
      for (;;) {
        const lineEnd = after.indexOf('\r\n');
        if (lineEnd < 0) break;
        const size = parseInt(after.slice(0, lineEnd), 16);
        if (!Number.isFinite(size)) break;
        if (size === 0) {
          const trailerEnd = after.indexOf('\r\n\r\n', lineEnd - 2);
          if (trailerEnd >= 0) {
            after = after.slice(trailerEnd + 4);
            complete = true;
          }
          break;
        }
        if (after.length < lineEnd + 2 + size + 2) break;
        body += after.slice(lineEnd + 2, lineEnd + 2 + size);
        after = after.slice(lineEnd + 2 + size + 2);
      }
      if (!complete) after = '';
    } else if (headers['content-length'] !== undefined) {
      const length = Number(headers['content-length']);
      complete = after.length >= length;
      body = after.slice(0, length);
      after = after.slice(length);
    } else {
      body = after;
      after = '';
      complete = closed;
    }
    responses.push({ status, headers, body });
    rest = after;
    if (!complete) break;
  }
  return { responses, rest, complete };
}

/** What came back on one connection. */
interface Exchange {
  readonly received: string;
  /** The server closed the connection (before the time bound, or soon after a complete answer). */
  readonly closed: boolean;
  /** A complete final answer came, but the connection stayed open after it despite `Connection: close`. */
  readonly keptOpen: boolean;
  readonly elapsedMs: number;
}

/** How long to wait, after a complete final answer, for the close or for more bytes. */
const AFTER_ANSWER_MS = 400;

/**
 * Writes `bytes` on a connection of its own and collects the answer until the
 * server closes, a little after a complete final answer, or the time bound.
 * The socket is always destroyed.
 */
function exchange(baseUrl: string, entry: CorpusEntry): Promise<Exchange> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve) => {
    const started = Date.now();
    const socket = connect(Number(port), hostname);
    const parts: Buffer[] = [];
    let settle: NodeJS.Timeout | undefined;
    let done = false;
    const finish = (closed: boolean, keptOpen: boolean) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      clearTimeout(settle);
      socket.destroy();
      resolve({ received: Buffer.concat(parts).toString('latin1'), closed, keptOpen, elapsedMs: Date.now() - started });
    };
    const timer = setTimeout(() => finish(false, settle !== undefined), TIME_BOUND_MS);
    socket.setNoDelay(true);
    socket.on('data', (part: Buffer) => {
      parts.push(part);
      const { responses, complete } = parseAll(Buffer.concat(parts).toString('latin1'), entry.head === true, false);
      const answered = complete && responses.some((response) => response.status >= 200);
      clearTimeout(settle);
      settle = answered ? setTimeout(() => finish(false, true), AFTER_ANSWER_MS) : undefined;
    });
    socket.on('error', () => {});
    socket.on('close', () => finish(true, false));
    socket.write(entry.bytes);
  });
}

/** An answer reduced to what is compared, whether the contract allows it, and more for people. */
interface Answer {
  readonly key: string;
  /** The connection stayed open after a complete answer to a `Connection: close` request (not compared). */
  readonly keptOpen: boolean;
  readonly conforming: boolean;
  readonly detail: string;
}

const utf8 = (latin1: string) => Buffer.from(latin1, 'latin1').toString('utf8');
const short = (text: string, max = 160) => (text.length > max ? `${text.slice(0, max)}… (${text.length} chars)` : text);

function jsonOf(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

function isErrorBody(response: ParsedResponse): boolean {
  const value = jsonOf(utf8(response.body));
  return (
    response.headers['content-type'] === 'application/json' &&
    isObject(value) &&
    Object.keys(value).join(',') === 'error,message' &&
    Number.isInteger(value['error']) &&
    typeof value['message'] === 'string'
  );
}

function isPlant(response: ParsedResponse): boolean {
  const value = jsonOf(utf8(response.body));
  if (response.headers['content-type'] !== 'application/json' || !isObject(value)) return false;
  const keys = Object.keys(value).join(',');
  return (keys === 'name' || keys === 'name,tag') && Object.values(value).every((field) => typeof field === 'string');
}

function isDocument(response: ParsedResponse): boolean {
  const value = jsonOf(utf8(response.body));
  return response.headers['content-type'] === 'application/json' && isObject(value) && value['openapi'] === '3.1.0';
}

function describeResponse(response: ParsedResponse, entry: CorpusEntry): { key: string; conforming: boolean } {
  const head = entry.head === true;
  if (head)
    return {
      key: `${response.status} (HEAD) content-type ${response.headers['content-type'] ?? '-'}`,
      conforming: response.headers['content-type'] === 'application/json',
    };
  const value = jsonOf(utf8(response.body));
  const code = isObject(value) && typeof value['error'] === 'number' ? value['error'] : undefined;
  if (isErrorBody(response)) return { key: `${response.status} error ${code}`, conforming: STATUS_OF_CODE[code!] === response.status };
  if (response.status === 200) return { key: `200 ${utf8(response.body)}`, conforming: entry.document === true ? isDocument(response) : isPlant(response) };
  if (code !== undefined) return { key: `${response.status} JSON with error ${code}, not the Error body`, conforming: false };
  return { key: `${response.status} not the Error body`, conforming: false };
}

function describeAnswer(entry: CorpusEntry, result: Exchange): Answer {
  if (result.received === '') {
    const key = result.closed ? 'no answer (closed)' : `no answer within ${TIME_BOUND_MS} ms`;
    return { key, keptOpen: false, conforming: entry.mayWait === true && !result.closed, detail: key };
  }
  const { responses, rest } = parseAll(result.received, entry.head === true, result.closed);
  const finals = responses.filter((response) => response.status >= 200);
  if (finals.length === 0) {
    const key = `unparseable answer ${JSON.stringify(short(rest, 60))}`;
    return { key, keptOpen: result.keptOpen, conforming: false, detail: key };
  }
  const [first, ...more] = finals.map((response) => describeResponse(response, entry));
  let key = first!.key;
  if (more.length > 0) key += `, then ${more.map((response) => short(response.key, 40)).join(', then ')}`;
  if (rest !== '') key += ', then unparseable bytes';
  const response = finals[0]!;
  const detail = `${short(key)} [content-type ${response.headers['content-type'] ?? '-'}${first!.conforming ? '' : `, body ${JSON.stringify(short(utf8(response.body), 80))}`}]`;
  return { key, keptOpen: result.keptOpen, conforming: first!.conforming && more.length === 0 && rest === '', detail };
}

/** Runs `work` over `items`, `limit` at a time, keeping the order of the results. */
async function pool<T, R>(items: readonly T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array<R>(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: limit }, async () => {
      while (next < items.length) {
        const index = next++;
        results[index] = await work(items[index]!);
      }
    }),
  );
  return results;
}

describe('differential: the corpus gets the same answers on every standalone runtime', () => {
  const servers = new Map<string, SpawnedServer>();
  const answers = new Map<string, Map<string, Answer>>();
  let elapsedMs = 0;

  beforeAll(async () => {
    const started = await Promise.allSettled(RUNTIMES.map(async (runtime) => servers.set(runtime.name, await spawnServer(runtime, 'working'))));
    const failed = started.find((outcome): outcome is PromiseRejectedResult => outcome.status === 'rejected');
    if (failed !== undefined) throw failed.reason;
    const begun = Date.now();
    await Promise.all(
      RUNTIMES.map(async ({ name }) => {
        const server = servers.get(name)!;
        const results = await pool(CORPUS, CONCURRENCY, (entry) => exchange(server.baseUrl, entry));
        answers.set(name, new Map(CORPUS.map((entry, index) => [entry.label, describeAnswer(entry, results[index]!)])));
        console.log();
      }),
    );
    elapsedMs = Date.now() - begun;
  }, 400_000);

  afterAll(async () => {
    await Promise.all([...servers.values()].map((server) => server.close()));
  }, 30_000);

  it('has unique labels, and every known difference names a label and a runtime of the run', () => {
    const labels = new Set(CORPUS.map((entry) => entry.label));
    expect(CORPUS.length - labels.size, 'duplicate labels').toBe(0);
    const names = new Set(RUNTIMES.map((runtime) => runtime.name));
    const unknown = Object.entries(KNOWN_DIFFERENCES).flatMap(([label, byRuntime]) =>
      Object.keys(byRuntime).flatMap((name) => (labels.has(label) && names.has(name) ? [] : [`${label} / ${name}`])),
    );
    expect(unknown).toEqual([]);
  });

  it('every server is still running after the corpus', () => {
    const exited = [...servers].flatMap(([name, server]) =>
      server.child.exitCode === null && server.child.signalCode === null ? [] : [`${name}:\n${server.output()}`],
    );
    expect(exited).toEqual([]);
  });

  it('answers an Error body or a Plant, and as Node 24 does, except where KNOWN_DIFFERENCES says why', () => {
    const reference = answers.get(REFERENCE)!;
    const problems: string[] = [];
    const summary: string[] = [];
    const listing: string[] = [];
    for (const { name } of RUNTIMES) {
      const mine = answers.get(name)!;
      let equal = 0;
      let known = 0;
      let different = 0;
      for (const { label } of CORPUS) {
        const answer = mine.get(label)!;
        const expected = reference.get(label)!;
        const reason = KNOWN_DIFFERENCES[label]?.[name as keyof (typeof KNOWN_DIFFERENCES)[string]];
        const differs = answer.key !== expected.key;
        const odd = differs || !answer.conforming;
        if (!odd) {
          equal++;
          if (reason !== undefined)
            problems.push(
              `${name}: ${label}: listed in KNOWN_DIFFERENCES but now answers ${short(answer.key, 80)}, equal to ${REFERENCE} and as the contract says`,
            );
          continue;
        }
        const what = differs
          ? `${answer.detail}; ${REFERENCE}: ${expected.detail}`
          : `${answer.detail} (as ${REFERENCE}${name === REFERENCE ? '' : ' does'}, but not an Error body or a Plant)`;
        if (reason === undefined) {
          different++;
          problems.push(`${name}: ${label}: ${what}`);
          listing.push(`  ✗ ${name}: ${label}: ${what}`);
        } else known++;
      }
      const keptOpen = [...mine.values()].filter((answer) => answer.keptOpen).length;
      summary.push(
        `  ${name}: ${equal} equal, ${known} known, ${different} different${keptOpen > 0 ? ` (kept ${keptOpen} connections open after answering Connection: close)` : ''}`,
      );
    }
    console.log(
      [
        `differential: ${CORPUS.length} requests on ${RUNTIMES.length} runtimes in ${(elapsedMs / 1000).toFixed(1)} s`,
        ...summary,
        ...(listing.length > 0 ? ['answers that differ or break the contract, not in KNOWN_DIFFERENCES:', ...listing] : []),
      ].join('\n'),
    );
    // DIFFERENTIAL_DUMP=path writes every answer as JSON, to review or regroup KNOWN_DIFFERENCES.
    if (process.env['DIFFERENTIAL_DUMP']) {
      const dump = Object.fromEntries(RUNTIMES.map(({ name }) => [name, Object.fromEntries([...answers.get(name)!].map(([label, a]) => [label, a]))]));
      writeFileSync(process.env['DIFFERENTIAL_DUMP'], JSON.stringify(dump));
    }
    expect(problems).toEqual([]);
  });
});
