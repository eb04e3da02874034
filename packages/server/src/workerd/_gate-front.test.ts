// Runs under vitest on Node.
import { EventEmitter } from 'node:events';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createOverloadGate } from '@plant-store/core';
import { describe, expect, it } from 'vitest';
import { gateFront } from './_gate-front.ts';
import type { FrontRoute } from './_proxy-to-worker.ts';

// gateFront over a stand-in proxy whose requests carry their route in the URL, and a gate that admits one at a time.
describe('gateFront', () => {
  it('sorts each request once, answers local ones and refusals locally, and takes a place only for the Worker routes', () => {
    const gate = createOverloadGate({ maxInFlight: 1, maxEventLoopDelayMs: 0 });
    const seen: string[] = [];
    let sorts = 0;
    const front = gateFront(
      gate,
      {
        sort: (req) => {
          sorts++;
          return req.url as FrontRoute;
        },
        pass: (req, _res, route) => seen.push(`passed ${req.url} as ${route}`),
      },
      (req) => seen.push(`local ${req.url}`),
    );
    const res = () => new EventEmitter() as unknown as ServerResponse;
    const held = res();
    for (const route of ['worker', 'local', 'probe', 'scrape']) front({ url: route } as IncomingMessage, route === 'worker' ? held : res());
    expect(gate.inFlight).toBe(1);
    // Past the bound of 1: refused, and answered locally.
    front({ url: 'worker' } as IncomingMessage, res());
    held.emit('close');
    expect(gate.inFlight).toBe(0);
    expect(seen).toEqual(['passed worker as worker', 'local local', 'passed probe as probe', 'passed scrape as scrape', 'local worker']);
    expect(sorts).toBe(5);
  });
});
