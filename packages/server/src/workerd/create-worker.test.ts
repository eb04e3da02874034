// Runs under vitest on Node: createWorker's answer to bindings it cannot serve with, on a clock the test sets (the Worker itself runs on workerd: runtime-tests/worker-bindings.test.ts).
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createWorker, SETTINGS_FAULT_LOG_INTERVAL_MS } from './create-worker.ts';

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

const context = { waitUntil: () => {} };
const create = () =>
  new Request('http://127.0.0.1/plants', {
    method: 'POST',
    headers: { authorization: 'Bearer t', 'content-type': 'application/json' },
    body: '{"id":1,"name":"Fern"}',
  });

describe('createWorker', () => {
  it('answers 500 with the Error body while PLANT_STORE_TOKENS is empty, and says so at most once a minute', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(1_000_000);
    const said: unknown[] = [];
    vi.spyOn(console, 'error').mockImplementation((line: unknown) => void said.push(line));
    const worker = createWorker();
    const env = { PLANT_STORE_TOKENS: '' };
    const answers = [];
    for (const advance of [0, 1_000, SETTINGS_FAULT_LOG_INTERVAL_MS - 1_001, 1, 30_000]) {
      vi.setSystemTime(Date.now() + advance);
      const response = await worker.fetch(create(), env, context);
      answers.push([response.status, await response.json()]);
    }
    expect(answers).toEqual(answers.map(() => [500, { error: 1500, message: 'internal error' }]));
    const line =
      'plant-store: PLANT_STORE_TOKENS: set but holds no token; set it to the accepted tokens, comma-separated, or unset it to have one made and printed';
    // At 0 s and once 60 s have passed since: not at 1 s, 59.999 s or 90 s.
    expect(said).toEqual([line, line]);
  });
});
