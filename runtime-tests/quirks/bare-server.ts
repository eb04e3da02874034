// Runs on bare Bun or bare Deno, with no Plant Store code, for runtime-tests/quirks.test.ts: the runtime's own
// Fetch server (Bun.serve, Deno.serve) with a handler that reads the whole body, so that a canary sees what
// the runtime does by itself with a request that stalls, a connection left idle, or requests pipelined behind
// an answer still pending, a large answer its client never reads, or a stream of a declared length.
interface Runtimes {
  readonly Bun?: {
    readonly env: Record<string, string | undefined>;
    serve(options: Record<string, unknown> & { fetch: (request: Request, server: BunServer) => Promise<Response> }): { readonly url: URL };
  };
  readonly Deno?: {
    readonly env: { get(name: string): string | undefined };
    serve(options: Record<string, unknown>, handler: (request: Request) => Promise<Response>): unknown;
  };
}

/** What a Bun handler is given beside its request. */
interface BunServer {
  timeout(request: Request, seconds: number): void;
}

const { Bun, Deno } = globalThis as unknown as Runtimes;
// One shared body far larger than the kernel's buffers take on loopback, for a client that never reads.
const LARGE = new Blob([new Uint8Array(16 * 1024 * 1024)]);
// `/later` answers one timer turn after the body is read, as a handler waiting on a store does; `/large`
// answers 16 MiB, so that the runtime, not the kernel, holds most of an answer its client does not read;
// `/streamed` answers two bytes as a stream with their Content-Length given, as a paced docs file is;
// `/large-timed` and `/large-stream-erroring` are `/large` with what a Bun handler could try to cut it sooner.
// Each byte pulled a timer turn later, as the paced slices are (a stream whose bytes are all there at once, Bun
// sends with their length).
function twoBytes(): ReadableStream<Uint8Array> {
  const bytes = [104, 105];
  return new ReadableStream(
    {
      async pull(controller) {
        await new Promise((resolve) => setTimeout(resolve, 0));
        controller.enqueue(new Uint8Array([bytes.shift()!]));
        if (bytes.length === 0) controller.close();
      },
    },
    { highWaterMark: 0 },
  );
}
/**
 * 16 MiB as a stream of 64 KiB slices, each pulled once the one before it is written, that errors itself once no
 * slice has been pulled for 2 s: what a handler can do about a client that stopped reading.
 */
function stallErroring(): ReadableStream<Uint8Array> {
  const slice = new Uint8Array(64 * 1024);
  let left = 256;
  let timer: ReturnType<typeof setTimeout> | undefined;
  return new ReadableStream(
    {
      pull(controller) {
        clearTimeout(timer);
        controller.enqueue(slice);
        if (--left === 0) return controller.close();
        timer = setTimeout(() => controller.error(new Error('no slice taken for 2 s')), 2_000);
      },
      cancel: () => clearTimeout(timer),
    },
    { highWaterMark: 0 },
  );
}
const handler = async (request: Request, server?: BunServer) => {
  const read = (await request.text()).length;
  const { pathname } = new URL(request.url);
  if (pathname === '/large') return new Response(LARGE);
  // What a Bun handler can ask of its server: a timeout of 2 s for this request's connection.
  if (pathname === '/large-timed') {
    server?.timeout(request, 2);
    return new Response(LARGE);
  }
  if (pathname === '/large-stream-erroring') return new Response(stallErroring());
  if (pathname === '/streamed') return new Response(twoBytes(), { headers: { 'content-length': '2' } });
  if (pathname === '/later') await new Promise((resolve) => setTimeout(resolve, 0));
  return new Response(`read ${read}`);
};
if (Bun !== undefined) {
  // QUIRK_IDLE_TIMEOUT_S: Bun's only cut of a connection, in seconds. The Node-named request and headers
  // timeouts are passed too, as the option a fix would most likely add: today Bun ignores them.
  const idleTimeout = Number(Bun.env['QUIRK_IDLE_TIMEOUT_S']) || 35;
  const server = Bun.serve({ hostname: '127.0.0.1', port: 0, idleTimeout, requestTimeout: 1, headersTimeout: 1, fetch: handler });
  console.log(`listening on ${server.url.origin}`);
} else if (Deno !== undefined) {
  Deno.serve({ hostname: '127.0.0.1', port: 0, onListen: ({ port }: { port: number }) => console.log(`listening on http://127.0.0.1:${port}`) }, handler);
}

// A module, so that its names stay its own.
export {};
