// The little of Bun's and Deno's globals that the servers run on those runtimes
// use (baseline-bun.mjs, hono-bun.mjs, baseline-deno.mjs reference this file).

type FetchHandler = (request: Request) => Response | Promise<Response>;

declare global {
  const Bun: {
    serve(options: { hostname: string; port: number; fetch: FetchHandler }): { readonly url: URL };
  };

  const Deno: {
    serve(options: { hostname: string; port: number; onListen?: (address: { hostname: string; port: number }) => void }, handler: FetchHandler): unknown;
  };
}

export {};
