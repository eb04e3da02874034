import { describe, expect, it } from 'vitest';
import { raceAbort } from './race-abort.ts';

describe('raceAbort', () => {
  it('settles as the promise does while the signal holds', async () => {
    const controller = new AbortController();
    expect(await raceAbort(Promise.resolve(5), controller.signal)).toBe(5);
    await expect(raceAbort(Promise.reject(new Error('no')), controller.signal)).rejects.toThrow('no');
  });

  it("rejects with the signal's reason at its abort, and hands what comes after to onLate", async () => {
    const controller = new AbortController();
    let settle!: (value: string) => void;
    const late: string[] = [];
    const raced = raceAbort(new Promise<string>((resolve) => (settle = resolve)), controller.signal, (value) => late.push(value));
    controller.abort(new Error('gone'));
    await expect(raced).rejects.toThrow('gone');
    settle('late answer');
    await Promise.resolve();
    await Promise.resolve();
    expect(late).toEqual(['late answer']);
  });

  it('rejects at once on a signal aborted before', async () => {
    await expect(raceAbort(new Promise(() => {}), AbortSignal.abort(new Error('before')))).rejects.toThrow('before');
  });
});
