// Runs on Node and Bun (setImmediate): large bodies handed to the network a slice a turn, every answer together.

/** Bodies larger than this are handed over a slice at a time; smaller ones whole, at once. */
export const SLICE_BYTES = 64 * 1024;
/**
 * Most bytes of large bodies handed over per turn of the event loop, every
 * answer together: a create waiting behind them waits for this much copying
 * at most, however many clients ask for the docs script at once.
 */
export const TURN_BUDGET_BYTES = 256 * 1024;

/** Slices waiting for a turn with budget left, in the order they asked; each returns the bytes it handed over. */
const waiting: (() => number)[] = [];
let scheduled = false;

function schedule(): void {
  if (scheduled) return;
  scheduled = true;
  // After the poll phase: the requests that came in this turn are handled before the next slices.
  setImmediate(pump);
}

/** Runs the waiting slices in order until the turn's budget is spent; a slice asked for during it waits for the next turn. */
function pump(): void {
  scheduled = false;
  let budget = TURN_BUDGET_BYTES;
  for (let n = waiting.length; budget > 0 && n > 0; n--) budget -= waiting.shift()!();
  if (waiting.length > 0) schedule();
}

/**
 * Runs `slice` in a later turn of the event loop, once that turn's budget
 * allows, after the slices asked for before it: it hands over at most
 * {@link SLICE_BYTES} of one large body and returns how many bytes it did
 * (0 when it had none to hand over: its client gone, its socket full). At most
 * {@link TURN_BUDGET_BYTES} are handed over a turn, the Node server's paced
 * answers and the Bun server's paced bodies together. `slice` must not throw:
 * one that did would strand the slices behind it.
 */
export function paceSlice(slice: () => number): void {
  waiting.push(slice);
  schedule();
}
