import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MetricHistogram } from './metric-histogram.ts';

describe('MetricHistogram', () => {
  it('writes cumulative buckets, an +Inf bucket equal to the count, and the sum', () => {
    const histogram = new MetricHistogram([1, 2]);
    for (const value of [0.5, 1, 1.5, 3]) histogram.observe(value);
    expect(histogram.lines('x', [['a', 'b']])).toBe(
      'x_bucket{a="b",le="1"} 2\nx_bucket{a="b",le="2"} 3\nx_bucket{a="b",le="+Inf"} 4\nx_sum{a="b"} 6\nx_count{a="b"} 4\n',
    );
  });

  it('keeps buckets cumulative and non-decreasing for any observations', () => {
    fc.assert(
      fc.property(fc.array(fc.double({ min: 0, max: 100, noNaN: true })), (values) => {
        const histogram = new MetricHistogram([0.1, 1, 10]);
        for (const value of values) histogram.observe(value);
        const counts = [...histogram.lines('x', []).matchAll(/^x_bucket\{le="[^"]+"\} (\d+)$/gm)].map((match) => Number(match[1]));
        expect(counts).toEqual([...counts].sort((a, b) => a - b));
        expect(counts.at(-1)).toBe(values.length);
        expect(counts[0]).toBe(values.filter((value) => value <= 0.1).length);
      }),
    );
  });
});
