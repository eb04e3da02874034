// Runs anywhere (plain numbers): how fast the standalone servers hand large bodies to the network.

/** Bodies larger than this are written a slice at a time; smaller ones whole, at once. */
export const SLICE_BYTES = 64 * 1024;
/**
 * Most bytes of large bodies written per turn of the event loop, every
 * connection together: a create waiting behind them waits for this much
 * copying at most, however many clients ask for the docs script at once.
 */
export const TURN_BUDGET_BYTES = 256 * 1024;
