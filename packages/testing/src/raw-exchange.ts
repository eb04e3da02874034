import { connect } from 'node:net';

/** A step of a raw exchange: bytes to write, or a pause. */
export type RawStep = string | Uint8Array | { readonly pauseMs: number };

/** What came back on the socket, and when it closed. */
export interface RawExchangeResult {
  /** Everything the server sent, as latin1 text (HTTP heads are ASCII). */
  readonly received: string;
  /** Whether the server closed the connection before `timeoutMs`. */
  readonly closed: boolean;
  /** Milliseconds from connecting to the close (or the timeout). */
  readonly elapsedMs: number;
}

/**
 * Speaks HTTP/1.1 by hand over `node:net`, for what HTTP clients would tidy
 * away: split or trickled heads, lying `Content-Length`, pipelining, aborts.
 * Write errors after the server closed are ignored; what it sent still counts.
 */
export function rawExchange(baseUrl: string, steps: readonly RawStep[], timeoutMs = 10_000): Promise<RawExchangeResult> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve) => {
    const started = Date.now();
    const socket = connect(Number(port), hostname);
    const parts: Buffer[] = [];
    let closed = false;
    const finish = () => {
      clearTimeout(timer);
      socket.destroy();
      resolve({ received: Buffer.concat(parts).toString('latin1'), closed, elapsedMs: Date.now() - started });
    };
    const timer = setTimeout(finish, timeoutMs);
    socket.on('data', (part: Buffer) => parts.push(part));
    socket.on('error', () => {});
    socket.on('close', () => {
      closed = true;
      finish();
    });
    void (async () => {
      for (const step of steps) {
        if (closed) return;
        if (typeof step === 'object' && 'pauseMs' in step) await new Promise((wait) => setTimeout(wait, step.pauseMs));
        else socket.write(step);
      }
    })();
  });
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
