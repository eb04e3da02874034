// Runs anywhere (no runtime API): the body reading the adapters settle from their runtime's own events.
import type { BodyReading, BodyResult } from './http-types.ts';

/**
 * A {@link BodyReading} an adapter settles itself, from its runtime's own
 * callback (Node's `'end'`, a Fetch body's promise, a deadline passing):
 * settled once, later results ignored; every `then` is called back once, at
 * once when it is already settled, so the core goes on in the adapter's
 * callback rather than a microtask turn later. It never fails.
 *
 * @example
 * const reading = new PendingBody();
 * req.on('end', () => reading.settle({ ok: true, bytes }));
 * return reading; // from PlantRequest.readBody
 */
export class PendingBody implements BodyReading {
  private result: BodyResult | undefined = undefined;
  private waiting: ((body: BodyResult) => void) | undefined = undefined;
  private more: ((body: BodyResult) => void)[] | undefined = undefined;

  then(onRead: (body: BodyResult) => void): void {
    if (this.result !== undefined) onRead(this.result);
    else if (this.waiting === undefined) this.waiting = onRead;
    else (this.more ??= []).push(onRead);
  }

  /**
   * Hands `result` to every `then`, now and later; the first call wins. A
   * callback that throws does not keep the others from theirs; the first
   * such error is thrown once all have been called.
   */
  settle(result: BodyResult): void {
    if (this.result !== undefined) return;
    this.result = result;
    const { waiting, more } = this;
    this.waiting = this.more = undefined;
    if (more === undefined) {
      waiting?.(result);
      return;
    }
    let failed: { error: unknown } | undefined;
    for (const onRead of [waiting!, ...more]) {
      try {
        onRead(result);
      } catch (error) {
        failed ??= { error };
      }
    }
    if (failed !== undefined) throw failed.error;
  }
}
