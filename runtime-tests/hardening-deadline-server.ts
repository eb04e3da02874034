// A Fetch server for hardening.test.ts, run from sources by Bun or
// Deno: the production handler behind the production request deadline
// (withRequestDeadline), shortened to HARDENING_DEADLINE_MS so that a test
// sees the 408 in seconds rather than after 30.
import { createFetchHandler } from '@plant-store/adapter-fetch';
import { staticTokens } from '@plant-store/core';
import { createMemoryStore } from '@plant-store/store-memory';
import { withRequestDeadline } from '@plant-store/server/bun';

interface Runtimes {
  readonly Bun?: {
    readonly env: Record<string, string | undefined>;
    serve(options: { hostname: string; port: number; idleTimeout: number; fetch: (request: Request) => Promise<Response> }): { readonly url: URL };
  };
  readonly Deno?: {
    readonly env: { get(name: string): string | undefined };
    serve(
      options: { hostname: string; port: number; onListen(address: { hostname: string; port: number }): void },
      handler: (request: Request) => Promise<Response>,
    ): unknown;
  };
}

const { Bun, Deno } = globalThis as unknown as Runtimes;
const env = (name: string) => Bun?.env[name] ?? Deno?.env.get(name) ?? '';
const deadlineMs = Number(env('HARDENING_DEADLINE_MS')) || 2000;
const fetch = withRequestDeadline(createFetchHandler({ store: createMemoryStore(), authenticate: staticTokens([env('PLANT_STORE_TOKENS')]) }), {
  timeoutMs: deadlineMs,
  checkEveryMs: 100,
});
if (Bun !== undefined) {
  const server = Bun.serve({ hostname: '127.0.0.1', port: 0, idleTimeout: 35, fetch: (request) => fetch(request) });
  console.log(`listening on ${server.url.origin}`);
} else if (Deno !== undefined) {
  Deno.serve({ hostname: '127.0.0.1', port: 0, onListen: ({ port }) => console.log(`listening on http://127.0.0.1:${port}`) }, (request) => fetch(request));
}
