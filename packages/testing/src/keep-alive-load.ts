import { Agent } from 'node:http';
import { send } from './http-client.ts';

/** What one request of a load run got: an answer, or a client-side error code. */
export interface LoadOutcome {
  readonly id: number;
  readonly status?: number;
  readonly connection?: string;
  readonly error?: string;
}

/** A running load; see {@link startKeepAliveLoad}. */
export interface KeepAliveLoad {
  /** From now on each client stops after its next answer that is not a 200, or its next error. */
  winding(): void;
  /** Every outcome, once all clients have stopped. */
  readonly finished: Promise<LoadOutcome[]>;
}

/**
 * Starts `clients` clients, each on one kept-alive connection of its own,
 * creating plants with fresh ids back to back until told to wind down: the
 * load a server must survive shutting down under.
 */
export function startKeepAliveLoad(options: {
  readonly baseUrl: string;
  readonly clients: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: (id: number) => string;
}): KeepAliveLoad {
  const outcomes: LoadOutcome[] = [];
  let nextId = 0;
  let winding = false;
  const client = async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      for (;;) {
        const id = ++nextId;
        try {
          const response = await send(options.baseUrl, { path: '/plants', headers: options.headers, body: options.body(id), agent });
          outcomes.push({ id, status: response.status, connection: String(response.headers['connection']) });
          if (winding && response.status !== 200) return;
        } catch (error) {
          outcomes.push({ id, error: (error as NodeJS.ErrnoException).code ?? String(error) });
          if (winding) return;
        }
      }
    } finally {
      agent.destroy();
    }
  };
  const running = Array.from({ length: options.clients }, client);
  return {
    winding: () => {
      winding = true;
    },
    finished: Promise.all(running).then(() => outcomes),
  };
}
