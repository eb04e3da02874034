import { describe, expect, it } from 'vitest';
import { STUCK_AFTER_MS, stuckStoreWatch } from './_stuck-store-watch.ts';

describe('stuckStoreWatch', () => {
  /** A watch on a clock set by hand, and the restarts it asked for, each settled by hand. */
  function watched() {
    let clock = 0;
    const restarts: (() => void)[] = [];
    const watch = stuckStoreWatch({ now: () => clock, restart: () => new Promise<void>((resolve) => restarts.push(resolve)) });
    return {
      watch,
      restarts,
      at(ms: number, status: number) {
        clock = ms;
        watch.answered(status);
      },
    };
  }

  it(`restarts once /readyz has been 503 for ${STUCK_AFTER_MS} ms, three times at least, and not while a restart is under way`, () => {
    const { restarts, at } = watched();
    at(0, 503);
    at(4_999, 503);
    expect(restarts).toHaveLength(0);
    at(5_000, 503);
    expect(restarts).toHaveLength(1);
    at(6_000, 503);
    expect(restarts).toHaveLength(1);
  });

  it('counts afresh after any other answer, and after two 503s alone it waits', () => {
    const { restarts, at } = watched();
    at(0, 503);
    at(3_000, 200);
    at(4_000, 503);
    at(8_999, 503);
    at(8_999, 503);
    expect(restarts).toHaveLength(0);
    at(9_000, 503);
    expect(restarts).toHaveLength(1);
  });

  it('waits twice as long before each further restart while the answers stay 503, and stops when told', async () => {
    const { watch, restarts, at } = watched();
    at(0, 503);
    at(1, 503);
    at(5_000, 503);
    restarts[0]!();
    await new Promise((resolve) => setTimeout(resolve, 0));
    at(6_000, 503);
    at(6_001, 503);
    at(15_999, 503);
    expect(restarts).toHaveLength(1);
    at(16_000, 503);
    expect(restarts).toHaveLength(2);
    restarts[1]!();
    await new Promise((resolve) => setTimeout(resolve, 0));
    watch.stop();
    for (let ms = 20_000; ms < 200_000; ms += 1_000) at(ms, 503);
    expect(restarts).toHaveLength(2);
  });
});
