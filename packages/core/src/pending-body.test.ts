import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { BodyResult } from './http-types.ts';
import { PendingBody } from './pending-body.ts';

const result: fc.Arbitrary<BodyResult> = fc.oneof(
  fc.uint8Array({ maxLength: 8 }).map((bytes) => ({ ok: true as const, bytes })),
  fc.constantFrom<BodyResult>({ ok: false, reason: 'too-large' }, { ok: false, reason: 'aborted' }),
);

describe('PendingBody', () => {
  it('calls every then back exactly once with the first result settled, at once when it is settled already', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.constant('then' as const), result), { maxLength: 12 }), (steps) => {
        const reading = new PendingBody();
        const heard: BodyResult[][] = [];
        let first: BodyResult | undefined;
        for (const step of steps) {
          if (step === 'then') {
            const calls: BodyResult[] = [];
            heard.push(calls);
            reading.then((body) => calls.push(body));
            // Once settled, a new then is answered before it returns.
            expect(calls).toHaveLength(first === undefined ? 0 : 1);
          } else {
            first ??= step;
            reading.settle(step);
          }
        }
        for (const calls of heard) expect(calls).toStrictEqual(first === undefined ? [] : [first]);
      }),
    );
  });

  it('is awaitable like a promise of its result', async () => {
    const reading = new PendingBody();
    const awaited = (async () => await reading)();
    reading.settle({ ok: false, reason: 'aborted' });
    expect(await awaited).toStrictEqual({ ok: false, reason: 'aborted' });
  });
});
