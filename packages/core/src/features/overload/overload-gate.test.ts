// Runs under vitest on Node.
import { describe, expect, it } from 'vitest';
import { createPlantResponder } from '../../create-plant-responder.ts';
import type { PlantRequest, PlantResponse } from '../../exchange/http-types.ts';
import { createOverloadGate } from './overload-gate.ts';
import type { PlantStore } from '../../domain/plant-store.ts';
import { staticTokens } from '../../exchange/static-tokens.ts';

const TOKEN = 'gate-token';

function request(url: string, method = 'GET'): PlantRequest {
  const bytes = new TextEncoder().encode('{"id":1,"name":"Fern"}');
  const headers: Record<string, string> = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json', 'x-request-id': 'req-1' };
  return { method, url, header: (name) => headers[name], readBody: () => ({ ok: true, bytes }) };
}

/** A store whose inserts wait until released, so that requests stay in flight. */
function heldStore(): PlantStore & { release(): void } {
  const waiting: (() => void)[] = [];
  return {
    insertIfAbsent: () => new Promise((resolve) => waiting.push(() => resolve({ status: 'inserted' }))),
    get: async () => undefined,
    ready: async () => {},
    release: () => waiting.splice(0).forEach((go) => go()),
  };
}

describe('createOverloadGate', () => {
  it('admits up to maxInFlight, refuses the next with 503 (1503) and Retry-After, and admits again once one leaves', () => {
    const gate = createOverloadGate({ maxInFlight: 2, maxEventLoopDelayMs: 0, retryAfterSeconds: 3 });
    expect(gate.enter()).toBeUndefined();
    expect(gate.enter()).toBeUndefined();
    const refusal = gate.enter();
    expect(refusal?.status).toBe(503);
    expect(refusal?.headers['retry-after']).toBe('3');
    expect(JSON.parse(refusal!.body)).toEqual({ error: 1503, message: 'the server is busy; retry in 3 s' });
    expect(gate.inFlight).toBe(2);
    gate.leave();
    expect(gate.busy()).toBe(false);
    expect(gate.enter()).toBeUndefined();
  });

  it('refuses while the event loop was late past the bound, and samples no longer once idle', async () => {
    const gate = createOverloadGate({ maxInFlight: 0, maxEventLoopDelayMs: 30, sampleIntervalMs: 5 });
    expect(gate.enter()).toBeUndefined();
    // Block the event loop well past the bound: the next sample is that late.
    const until = performance.now() + 120;
    while (performance.now() < until);
    await new Promise((resolve) => setTimeout(resolve, 0));
    await eventually(() => gate.delayMs > 30);
    expect(gate.enter()).toBe(gate.refusal);
    gate.leave();
    // With nothing arriving and nothing in flight, the sampler stops and forgets the delay.
    await eventually(() => gate.delayMs === 0);
    expect(gate.enter()).toBeUndefined();
  });

  it('rejects bounds that are not integers in range', () => {
    expect(() => createOverloadGate({ maxInFlight: -1 })).toThrow('createOverloadGate: `overload.maxInFlight` must be an integer of at least 0');
    expect(() => createOverloadGate({ retryAfterSeconds: 0 })).toThrow('retryAfterSeconds');
    expect(() => createOverloadGate({ sampleIntervalMs: 1.5 })).toThrow('sampleIntervalMs');
  });
});

describe('the overload option of a responder', () => {
  it('refuses past the bound with the request id, never refuses /healthz or /metrics, says busy on /readyz, and admits again once answers leave', async () => {
    const store = heldStore();
    const respondTo = createPlantResponder({
      store,
      authenticate: staticTokens([TOKEN]),
      health: true,
      requestId: true,
      metrics: true,
      overload: { maxInFlight: 1, maxEventLoopDelayMs: 0 },
    });
    const answers: PlantResponse[] = [];
    const keep = (response: PlantResponse) => answers.push(response);
    respondTo(request('/plants', 'POST'), keep);
    expect(answers).toEqual([]);
    respondTo(request('/plants', 'POST'), keep);
    respondTo(request('/readyz'), keep);
    respondTo(request('/healthz'), keep);
    respondTo(request('/metrics'), keep);
    expect(answers.map((answer) => answer.status)).toEqual([503, 503, 200, 200]);
    expect(answers[0]!.headers).toMatchObject({ 'retry-after': '1', 'x-request-id': 'req-1' });
    expect(JSON.parse(answers[1]!.body).error).toBe(1503);
    store.release();
    await eventually(() => answers.length === 5);
    expect(answers[4]!.status).toBe(200);
    respondTo(request('/openapi.json'), keep);
    expect(answers[5]!.status).toBe(200);
    expect(JSON.parse(answers[5]!.body).components.responses.ServiceUnavailable.description).toContain('1503');
  });

  it('names the function called in an option error', () => {
    const options = { store: heldStore(), authenticate: staticTokens([TOKEN]), overload: { maxInFlight: -1 } };
    expect(() => createPlantResponder(options, 'createNodeHandler')).toThrow('createNodeHandler: `overload.maxInFlight` must be an integer of at least 0');
  });

  it('answers a name under /docs/ that is no file 404 (1200) past the bound, as any path that is no route, uncounted', () => {
    const gate = createOverloadGate({ maxInFlight: 1, maxEventLoopDelayMs: 0 });
    gate.enter();
    const docs = { html: '<!doctype html>', files: { 'app.js': { contentType: 'text/javascript', body: 'void 0' } } };
    const respondTo = createPlantResponder({ store: heldStore(), authenticate: staticTokens([TOKEN]), docs, overload: gate });
    const answers: PlantResponse[] = [];
    for (const url of ['/docs/missing', '/docs/app.js', '/nowhere']) respondTo(request(url), (response) => answers.push(response));
    expect(answers.map((answer) => [answer.status, answer.unmatched === true || JSON.parse(answer.body).error])).toEqual([
      [404, 1200],
      [503, 1503],
      [404, true],
    ]);
    expect(gate.inFlight).toBe(1);
  });

  it('counts nothing with both bounds 0 (no protection)', () => {
    const gate = createOverloadGate({ maxInFlight: 0, maxEventLoopDelayMs: 0 });
    expect(gate.bounded).toBe(false);
    const store = heldStore();
    const respondTo = createPlantResponder({ store, authenticate: staticTokens([TOKEN]), overload: gate });
    for (let i = 0; i < 3; i++) respondTo(request('/plants', 'POST'), () => {});
    expect(gate.inFlight).toBe(0);
    expect(createOverloadGate({ maxInFlight: 1, maxEventLoopDelayMs: 0 }).bounded).toBe(true);
    expect(createOverloadGate({ maxInFlight: 0, maxEventLoopDelayMs: 1 }).bounded).toBe(true);
    store.release();
  });

  it('leaves a path the handler does not serve to the host, uncounted', () => {
    const gate = createOverloadGate({ maxInFlight: 1, maxEventLoopDelayMs: 0 });
    gate.enter();
    const respondTo = createPlantResponder({ store: heldStore(), authenticate: staticTokens([TOKEN]), overload: gate });
    let answer: PlantResponse | undefined;
    respondTo(request('/elsewhere'), (response) => (answer = response));
    expect(answer?.unmatched).toBe(true);
    expect(gate.inFlight).toBe(1);
  });
});

async function eventually(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 2));
}
