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

  it('calls thenWith and then back in the order they came, once each, with thenWith handed its context', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.constantFrom('then' as const, 'thenWith' as const), result), { maxLength: 12 }), (steps) => {
        const reading = new PendingBody();
        const heard: string[] = [];
        const expected: string[] = [];
        const waiting: string[] = [];
        let first: BodyResult | undefined;
        for (const [index, step] of steps.entries()) {
          if (step === 'then' || step === 'thenWith') {
            const label = `${step} ${index}`;
            if (step === 'then') reading.then((body) => heard.push(`${label} ${String(body === first)}`));
            else reading.thenWith(label, (context, body) => heard.push(`${context} ${String(body === first)}`));
            // Once settled, a new wait is answered at once; before, it waits its turn.
            if (first === undefined) waiting.push(`${label} true`);
            else expected.push(`${label} true`);
          } else {
            if (first === undefined) {
              first = step;
              expected.push(...waiting);
            }
            reading.settle(step);
          }
        }
        expect(heard).toStrictEqual(expected);
      }),
    );
  });

  it('calls back a then registered from inside a callback at once, and ignores a settle from inside one', () => {
    const reading = new PendingBody();
    const heard: string[] = [];
    reading.then((body) => {
      heard.push(`first ${body.ok}`);
      reading.settle({ ok: false, reason: 'aborted' });
      reading.then((again) => heard.push(`nested ${again.ok}`));
    });
    reading.then((body) => heard.push(`second ${body.ok}`));
    reading.settle({ ok: true, bytes: new Uint8Array(1) });
    expect(heard).toStrictEqual(['first true', 'nested true', 'second true']);
  });

  it('calls every callback even when one throws, and throws the first error once all are called', () => {
    const reading = new PendingBody();
    const heard: number[] = [];
    reading.then(() => {
      heard.push(1);
      throw new Error('first');
    });
    reading.then(() => {
      heard.push(2);
      throw new Error('second');
    });
    reading.then(() => heard.push(3));
    expect(() => reading.settle({ ok: false, reason: 'too-large' })).toThrow('first');
    expect(heard).toStrictEqual([1, 2, 3]);
  });

  it('is awaitable like a promise of its result', async () => {
    const reading = new PendingBody();
    const awaited = (async () => await reading)();
    reading.settle({ ok: false, reason: 'aborted' });
    expect(await awaited).toStrictEqual({ ok: false, reason: 'aborted' });
  });
});
