// Runs anywhere (no runtime API): one series of a Prometheus histogram, as plain numbers.
import { formatSampleValue, labelSet } from './prometheus-text.ts';

/**
 * Counts observations into fixed buckets: one array of numbers, filled in
 * place, so that an observation allocates nothing.
 */
export class MetricHistogram {
  /** Upper bounds, ascending; `+Inf` is implied. */
  readonly bounds: readonly number[];
  /** Observations per bucket (not cumulative), the last one past every bound. */
  readonly counts: number[];
  sum = 0;
  count = 0;

  /** An empty series over `bounds` (ascending upper bounds, without `+Inf`). */
  constructor(bounds: readonly number[]) {
    this.bounds = bounds;
    this.counts = new Array<number>(bounds.length + 1).fill(0);
  }

  /** Counts one observation. */
  observe(value: number): void {
    const { bounds } = this;
    let i = 0;
    while (i < bounds.length && value > bounds[i]!) i++;
    this.counts[i]!++;
    this.sum += value;
    this.count++;
  }

  /**
   * The series' lines: cumulative `_bucket` lines with `le`, then `_sum` and
   * `_count`, each with `labels` first.
   */
  lines(name: string, labels: readonly (readonly [string, string])[]): string {
    let text = '';
    let cumulative = 0;
    for (let i = 0; i <= this.bounds.length; i++) {
      cumulative += this.counts[i]!;
      const le = i === this.bounds.length ? '+Inf' : formatSampleValue(this.bounds[i]!);
      text += `${name}_bucket${labelSet([...labels, ['le', le]])} ${cumulative}\n`;
    }
    const set = labelSet(labels);
    return `${text}${name}_sum${set} ${formatSampleValue(this.sum)}\n${name}_count${set} ${this.count}\n`;
  }
}
