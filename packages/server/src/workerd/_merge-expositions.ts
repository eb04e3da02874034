// Runs on Node, in the standalone workerd launcher's front: one scrape of what the Worker and the front count.

/** A family's lines: its `# HELP` and `# TYPE`, then its samples by series (the line before the value) in order. */
interface Family {
  readonly header: string[];
  readonly samples: Map<string, string>;
}

// A gauge of 0 or 1 that both processes keep: the front's drain is the server's.
const LARGEST = new Set(['plant_store_draining']);

/**
 * One Prometheus text exposition of two that `PlantMetrics.expose()` wrote,
 * the Worker's (`first`) and the front's (`second`), as one process that had
 * counted both would write it: each sample of a series both have is the sum of
 * the two (the larger for `plant_store_draining`), and a series only the
 * second has comes after the first's of its family, its lines together, in
 * the second's order. The front answers what never reaches the Worker (other
 * methods, the docs page, refusals of its overload gate, a drain), so that its
 * scrape counts every answer, as on Node.
 *
 * @example
 * mergeExpositions(workerText, frontMetrics.expose());
 */
export function mergeExpositions(first: string, second: string): string {
  const theirs = families(second);
  let text = '';
  for (const [name, family] of families(first)) {
    const other = theirs.get(name);
    theirs.delete(name);
    text += family.header.join('');
    for (const [series, value] of family.samples) {
      const more = other?.samples.get(series);
      other?.samples.delete(series);
      text += `${series} ${more === undefined ? value : combine(name, value, more)}\n`;
    }
    if (other !== undefined) for (const [series, value] of other.samples) text += `${series} ${value}\n`;
  }
  for (const family of theirs.values()) text += family.header.join('') + [...family.samples].map(([series, value]) => `${series} ${value}\n`).join('');
  return text;
}

/** The families of an exposition, in order, each keyed by the name its `# HELP` line gives. */
function families(text: string): Map<string, Family> {
  const found = new Map<string, Family>();
  let current: Family | undefined;
  for (const line of text.split('\n')) {
    if (line === '') continue;
    if (line.startsWith('# ')) {
      // `# HELP name …` opens a family; `# TYPE name …` follows it.
      const name = line.split(' ', 3)[2]!;
      if (line.startsWith('# HELP ') || current === undefined) found.set(name, (current = { header: [], samples: new Map() }));
      current.header.push(`${line}\n`);
      continue;
    }
    // A value holds no space; a label value may.
    const at = line.lastIndexOf(' ');
    // Samples before any `# HELP` (never written by PlantMetrics) make a family of no name.
    if (current === undefined) found.set('', (current = { header: [], samples: new Map() }));
    current.samples.set(line.slice(0, at), line.slice(at + 1));
  }
  return found;
}

function combine(family: string, a: string, b: string): string {
  const [x, y] = [parseValue(a), parseValue(b)];
  const value = LARGEST.has(family) ? Math.max(x, y) : x + y;
  if (value === Number.POSITIVE_INFINITY) return '+Inf';
  if (value === Number.NEGATIVE_INFINITY) return '-Inf';
  return Number.isNaN(value) ? 'NaN' : String(value);
}

function parseValue(text: string): number {
  return text === '+Inf' ? Number.POSITIVE_INFINITY : text === '-Inf' ? Number.NEGATIVE_INFINITY : Number(text);
}
