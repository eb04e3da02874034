import { connect } from 'node:net';

/**
 * A step of a raw exchange: bytes to write, a pause, or `{ shutdown: true }`,
 * which shuts down the sending side (a TCP half-close, as `nc -N` does once
 * its input ends) and leaves the connection open to read the answers.
 */
export type RawStep = string | Uint8Array | { readonly pauseMs: number } | { readonly shutdown: true };

/** What came back on the socket, and when it closed. */
export interface RawExchangeResult {
  /** Everything the server sent, as latin1 text (HTTP heads are ASCII). */
  readonly received: string;
  /** Whether the server closed the connection before `timeoutMs`. */
  readonly closed: boolean;
  /** Milliseconds from connecting to the close (or the timeout). */
  readonly elapsedMs: number;
}

/** Options of {@link rawExchange}. */
export interface RawExchangeOptions {
  /**
   * Stop as soon as this many complete final answers (status 200 or more,
   * whole by their `Content-Length`) have come, instead of waiting for the
   * server to close or for the time to run out: a kept-alive connection is
   * never closed by the server before its idle timeout.
   */
  readonly answers?: number;
}

/**
 * Speaks HTTP/1.1 by hand over `node:net`, for what HTTP clients would tidy
 * away: split or trickled heads, lying `Content-Length`, pipelining, aborts.
 * It ends when the server closes, after `options.answers` answers, or at
 * `timeoutMs`. Write errors after the server closed are ignored; what it sent
 * still counts.
 */
export function rawExchange(baseUrl: string, steps: readonly RawStep[], timeoutMs = 10_000, options: RawExchangeOptions = {}): Promise<RawExchangeResult> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve) => {
    const started = Date.now();
    const socket = connect(Number(port), hostname);
    const parts: Buffer[] = [];
    let closed = false;
    let done = false;
    const finish = () => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket.destroy();
      resolve({ received: Buffer.concat(parts).toString('latin1'), closed, elapsedMs: Date.now() - started });
    };
    const timer = setTimeout(finish, timeoutMs);
    socket.on('data', (part: Buffer) => {
      parts.push(part);
      if (options.answers !== undefined && completeAnswers(Buffer.concat(parts).toString('latin1')) >= options.answers) finish();
    });
    socket.on('error', () => {});
    socket.on('close', () => {
      closed = true;
      finish();
    });
    void (async () => {
      for (const step of steps) {
        if (closed) return;
        if (typeof step === 'object' && 'pauseMs' in step) await new Promise((wait) => setTimeout(wait, step.pauseMs));
        else if (typeof step === 'object' && 'shutdown' in step) socket.end();
        else socket.write(step);
      }
    })();
  });
}

/** How many final answers `received` holds whole (interim 1xx answers are not counted). */
function completeAnswers(received: string): number {
  let count = 0;
  let rest = received;
  while (rest.startsWith('HTTP/1.1 ')) {
    const end = rest.indexOf('\r\n\r\n');
    if (end < 0) break;
    const length = Number(/\r\ncontent-length:\s*(\d+)/i.exec(rest.slice(0, end + 2))?.[1] ?? 0);
    if (rest.length < end + 4 + length) break;
    if (Number(rest.slice(9, 12)) >= 200) count++;
    rest = rest.slice(end + 4 + length);
  }
  return count;
}

/** Splits a raw HTTP/1.1 byte stream into its responses' status codes and bodies (Content-Length framing). */
export function parseResponses(received: string): { status: number; headers: Record<string, string>; body: string }[] {
  const responses: { status: number; headers: Record<string, string>; body: string }[] = [];
  let rest = received;
  while (rest.startsWith('HTTP/1.1 ')) {
    const end = rest.indexOf('\r\n\r\n');
    if (end < 0) break;
    const [statusLine, ...lines] = rest.slice(0, end).split('\r\n');
    const headers: Record<string, string> = {};
    for (const line of lines) {
      const colon = line.indexOf(':');
      headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
    }
    const length = Number(headers['content-length'] ?? 0);
    // `received` holds one character per byte, so lengths in bytes are lengths in characters.
    const body = Buffer.from(rest.slice(end + 4, end + 4 + length), 'latin1').toString('utf8');
    responses.push({ status: Number(statusLine!.split(' ')[1]), headers, body });
    rest = rest.slice(end + 4 + length);
  }
  return responses;
}
