// Runs wherever a standalone server reads its settings: plain data, no runtime API.

/** A candidate and how many edits away from it a name is. */
export interface Nearest {
  readonly name: string;
  /** Letters inserted, deleted, replaced or swapped with a neighbour, in any case. */
  readonly distance: number;
}

/**
 * The candidate closest to any of `spellings` (a misspelt variable, and the
 * same without its prefix), by edit distance ignoring case; the first one
 * listed wins a tie, so the order of `candidates` decides between equals.
 * Swapping two neighbours counts as one edit: `DATABSE` is one edit from
 * `DATABASE`, the typo it most likely is.
 *
 * @param candidates At least one.
 */
export function nearestName(spellings: readonly string[], candidates: readonly string[]): Nearest {
  let best: Nearest | undefined;
  for (const candidate of candidates) {
    const distance = Math.min(...spellings.map((spelling) => editDistance(spelling.toUpperCase(), candidate.toUpperCase())));
    if (best === undefined || distance < best.distance) best = { name: candidate, distance };
  }
  if (best === undefined) throw new TypeError('nearestName: no candidates');
  return best;
}

/** Optimal string alignment distance (Levenshtein with adjacent swaps). */
function editDistance(a: string, b: string): number {
  // Three rows suffice: a swap looks two rows back.
  let before: number[] = [];
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let distance = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) distance = Math.min(distance, before[j - 2]! + 1);
      current.push(distance);
    }
    before = previous;
    previous = current;
  }
  return previous[b.length]!;
}
