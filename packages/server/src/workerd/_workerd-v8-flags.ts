// Runs on Node (the workerd launcher): the V8 flags workerd is started with, through miniflare's MINIFLARE_WORKERD_V8_FLAGS.

/**
 * A young generation of at most 2 MiB per semi-space in each of workerd's
 * isolates. With V8's default, what D1's local path allocates for each query
 * is let go late, and workerd grew with every create: the standalone server on
 * D1, front and workerd together, +144 MiB over creates 20,000 to 80,000, still
 * rising at 120,000; with this it levels off, at the same creates per second
 * (quirk `workerd-d1-memory`, workerd/QUIRKS.md).
 */
export const WORKERD_V8_FLAGS = '--max-semi-space-size=2';

/**
 * What `MINIFLARE_WORKERD_V8_FLAGS` is set to, given its value (miniflare
 * hands it to workerd, splitting it at each space): {@link WORKERD_V8_FLAGS},
 * then the flags given, so that a later flag of the same name wins; one space
 * between flags. Unchanged when ours already come first (a second start in
 * the same process).
 *
 * @example
 * workerdV8Flags(' --max-old-space-size=512 '); // '--max-semi-space-size=2 --max-old-space-size=512'
 */
export function workerdV8Flags(given: string | undefined): string {
  const flags = (given ?? '').split(/\s+/).filter((flag) => flag !== '');
  if (flags[0] !== WORKERD_V8_FLAGS) flags.unshift(WORKERD_V8_FLAGS);
  return flags.join(' ');
}
