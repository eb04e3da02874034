// Runs under vitest on Node: a standalone server in this process with short timeouts, for the tests of what they cut.
import { staticTokens } from '@plant-store/core';
import { createMemoryStore } from '@plant-store/store-memory';
import { afterAll, beforeAll } from 'vitest';
import { serve, type RunningServer } from '../../src/index.ts';

/** The bearer token {@link useTimedServer}'s server takes. */
export const TIMED_SERVER_TOKEN = 't';

/**
 * Starts `serve()` on port 0 over a memory store, with the given headers and
 * request timeouts and no access log, before the file's tests, and closes it
 * after them; returns a getter of the running server.
 */
export function useTimedServer(headersTimeoutMs: number, requestTimeoutMs: number): () => RunningServer {
  let running: RunningServer | undefined;
  beforeAll(async () => {
    running = await serve({
      store: createMemoryStore(),
      authenticate: staticTokens([TIMED_SERVER_TOKEN]),
      port: 0,
      accessLog: false,
      headersTimeoutMs,
      requestTimeoutMs,
    });
  });
  afterAll(() => running?.close());
  return () => {
    if (running === undefined) throw new Error('useTimedServer: the server is not running (outside a test?)');
    return running;
  };
}
