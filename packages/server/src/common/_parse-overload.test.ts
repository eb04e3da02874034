// Runs under vitest on Node.
import { describe, expect, it } from 'vitest';
import { parseOverload } from './_parse-overload.ts';

describe('parseOverload', () => {
  it('defaults to 256 in flight and 1000 ms of event-loop delay; 0 turns a bound off, both off is no gate', () => {
    expect(parseOverload(undefined, undefined)).toEqual({ maxInFlight: 256, maxEventLoopDelayMs: 1000 });
    expect(parseOverload(' 32 ', '0')).toEqual({ maxInFlight: 32, maxEventLoopDelayMs: 0 });
    expect(parseOverload('0', '0')).toBeUndefined();
  });

  it('names the variable of a value that is not a whole number', () => {
    expect(() => parseOverload('-1', undefined)).toThrow('PLANT_STORE_MAX_IN_FLIGHT: expected a whole number, 0 for no bound, got "-1"');
    expect(() => parseOverload(undefined, '1.5')).toThrow('PLANT_STORE_MAX_EVENT_LOOP_DELAY_MS');
  });
});
