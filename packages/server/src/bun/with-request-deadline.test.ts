// Runs under vitest on Node: withRequestDeadline uses only timers, promises and web streams, which Node has as Bun does
// (what Bun.serve does with its answers is runtime-tests' part: hardening's request deadline block).
import type { FetchContext, RequestDeadline } from '@plant-store/adapter-fetch';
import { createFetchHandler } from '@plant-store/adapter-fetch';
import { staticTokens } from '@plant-store/core';
import { createMemoryStore } from '@plant-store/store-memory';
import { describe, expect, it, vi } from 'vitest';
import { withRequestDeadline } from './with-request-deadline.ts';

const HEADERS = { authorization: 'Bearer t', 'content-type': 'application/json' };
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A handler whose answers the test settles, one by one, and which watches each request's deadline as a body read does. */
function heldHandler() {
  const held: { deadline: RequestDeadline; passedAt: number | undefined; answer: () => void }[] = [];
  const handler = (_request: Request, context?: FetchContext) =>
    new Promise<Response>((resolve) => {
      const deadline = context!.deadline!;
      const entry = { deadline, passedAt: undefined as number | undefined, answer: () => resolve(new Response('ok')) };
      deadline.watch(() => (entry.passedAt = performance.now()));
      held.push(entry);
    });
  return { handler, held };
}

describe('withRequestDeadline', () => {
  it('cuts a body still arriving at the deadline with 408 (1402) and Connection: close, not before it', async () => {
    const fetch = withRequestDeadline(createFetchHandler({ store: createMemoryStore(), authenticate: staticTokens(['t']) }), {
      timeoutMs: 300,
      checkEveryMs: 100,
    });
    const body = new ReadableStream<Uint8Array>({ start: (controller) => controller.enqueue(new TextEncoder().encode('{"id":1,')) });
    const started = performance.now();
    const response = await fetch(new Request('http://x/plants', { method: 'POST', headers: HEADERS, body, duplex: 'half' } as RequestInit));
    const elapsed = performance.now() - started;
    expect([response.status, response.headers.get('connection'), (await response.json()) as unknown]).toEqual([
      408,
      'close',
      expect.objectContaining({ error: 1402 }),
    ]);
    // Not before it; how late at most, the next test bounds on fake timers, where no loaded machine adds its own delay.
    expect(elapsed).toBeGreaterThanOrEqual(300);
    await fetch.whenIdle();
  });

  it('passes each deadline no sooner than timeoutMs after its call and less than checkEveryMs after that, whatever the order of the answers', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'setTimeout', 'clearTimeout', 'performance'] });
    try {
      const { handler, held } = heldHandler();
      const guarded = withRequestDeadline(handler, { timeoutMs: 200, checkEveryMs: 40 });
      const calledAt: number[] = [];
      const answers: Promise<Response>[] = [];
      const call = () => {
        calledAt.push(performance.now());
        answers.push(guarded(new Request(`http://x/${answers.length}`)));
      };
      // Four at once, one just after a check, one just before the next.
      for (let i = 0; i < 4; i++) call();
      vi.advanceTimersByTime(21);
      call();
      vi.advanceTimersByTime(18);
      call();
      // Out of the list's middle, then its head.
      held[1]!.answer();
      held[0]!.answer();
      await Promise.all(answers.slice(0, 2));
      let idle = false;
      const whenIdle = guarded.whenIdle().then(() => (idle = true));
      vi.advanceTimersByTime(400);
      expect(held.map((entry) => entry.deadline.passed)).toEqual([false, false, true, true, true, true]);
      for (let i = 2; i < held.length; i++) {
        const late = held[i]!.passedAt! - calledAt[i]! - 200;
        expect(late, `request ${i}`).toBeGreaterThanOrEqual(0);
        expect(late, `request ${i}`).toBeLessThan(40);
      }
      await Promise.resolve();
      expect(idle).toBe(false);
      for (const entry of held.slice(2)) entry.answer();
      await whenIdle;
      expect(idle).toBe(true);
      // Idle, the next request starts the list again.
      call();
      vi.advanceTimersByTime(199);
      expect(held[6]!.deadline.passed).toBe(false);
      vi.advanceTimersByTime(40);
      expect(held[6]!.passedAt! - calledAt[6]!).toBeGreaterThanOrEqual(200);
      held[6]!.answer();
      await answers[6];
      await guarded.whenIdle();
    } finally {
      vi.useRealTimers();
    }
  });

  it('tells a handler that looks only after its deadline that it has passed, and a watcher set then is called at once', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'setTimeout', 'clearTimeout', 'performance'] });
    try {
      let seen: boolean | undefined;
      let called = false;
      const guarded = withRequestDeadline(
        async (_request, context) => {
          await sleep(250);
          seen = context!.deadline!.passed;
          context!.deadline!.watch(() => (called = true));
          return new Response('late');
        },
        { timeoutMs: 100, checkEveryMs: 40 },
      );
      const answered = guarded(new Request('http://x/'));
      // The checks (every 20 ms) pass the deadline 100 to 140 ms in, well before the handler looks at 250 ms.
      await vi.advanceTimersByTimeAsync(250);
      await answered;
      expect([seen, called]).toEqual([true, true]);
    } finally {
      vi.useRealTimers();
    }
  });

  it('lets go of a request whose handler throws or rejects', async () => {
    const throwing = withRequestDeadline(() => {
      throw new Error('sync');
    });
    expect(() => throwing(new Request('http://x/'))).toThrow('sync');
    await throwing.whenIdle();
    const rejecting = withRequestDeadline(() => Promise.reject(new Error('async')));
    await expect(rejecting(new Request('http://x/'))).rejects.toThrow('async');
    await rejecting.whenIdle();
  });
});
