// Runs under vitest on Node.
import { createPlantMetrics, type PlantMetrics } from '@plant-store/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { mergeExpositions } from './_merge-expositions.ts';

type Route = Parameters<PlantMetrics['requestAnswered']>[0];
const ROUTES: Route[] = [
  undefined,
  { name: 'plants', template: '/plants', allow: 'POST', answer: () => ({ status: 200, headers: {}, body: '' }) },
  { name: 'docs', template: '/docs/{file}', allow: 'GET', answer: () => ({ status: 200, headers: {}, body: '' }) },
];

/** What a handler tells its metrics, one answer or store call at a time. */
type Observation =
  | { kind: 'answer'; route: number; method: string; status: number; seconds: number; error: number | undefined }
  | { kind: 'stored'; outcome: 'created' | 'replayed' }
  | { kind: 'store'; seconds: number; ok: boolean }
  | { kind: 'commit'; size: number }
  | { kind: 'draining'; draining: boolean };

// Durations in 1/1024 s: their sums are exact whatever the order of the additions.
const seconds = fc.integer({ min: 0, max: 20 * 1024 }).map((n) => n / 1024);
const observation: fc.Arbitrary<Observation> = fc.oneof(
  fc.record({
    kind: fc.constant('answer' as const),
    route: fc.integer({ min: 0, max: ROUTES.length - 1 }),
    method: fc.constantFrom('POST', 'GET', 'PUT', 'PROPFIND'),
    status: fc.constantFrom(200, 400, 404, 405, 409, 503),
    seconds,
    error: fc.option(fc.constantFrom(1001, 1300, 1501, 1503), { nil: undefined }),
  }),
  fc.record({ kind: fc.constant('stored' as const), outcome: fc.constantFrom('created' as const, 'replayed' as const) }),
  fc.record({ kind: fc.constant('store' as const), seconds, ok: fc.boolean() }),
  fc.record({ kind: fc.constant('commit' as const), size: fc.integer({ min: 1, max: 2000 }) }),
  fc.record({ kind: fc.constant('draining' as const), draining: fc.boolean() }),
);

function observe(metrics: PlantMetrics, observations: readonly Observation[]): PlantMetrics {
  for (const each of observations) {
    if (each.kind === 'answer') {
      metrics.requestStarted();
      metrics.requestAnswered(ROUTES[each.route], each.method, each.status, each.seconds, each.error, '');
    } else if (each.kind === 'stored') metrics.createStored(each.outcome);
    else if (each.kind === 'store') metrics.storeAnswered(each.seconds, each.ok);
    else if (each.kind === 'commit') metrics.observeGroupCommit(each.size);
    // Once draining, a process stays so.
    else if (each.draining) metrics.setDraining(true);
  }
  return metrics;
}

/** Per family (from its `# HELP`), its header lines and its sample lines sorted, the families sorted: an exposition as Prometheus reads it. */
function normalised(text: string): string[][] {
  const families: string[][] = [];
  for (const line of text.split('\n').filter((each) => each !== '')) {
    if (line.startsWith('# HELP ')) families.push([line]);
    else families.at(-1)!.push(line);
  }
  return families.map(([help, type, ...samples]) => [help!, type!, ...samples.sort()]).sort(([a], [b]) => (a! < b! ? -1 : 1));
}

/** The series of each family (sample name and labels but `le`) in the order they come, each once: a series' lines are together. */
function seriesRuns(text: string): string[] {
  const runs: string[] = [];
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const series = line
      .slice(0, line.lastIndexOf(' '))
      .replace(/_(bucket|sum|count)(?=\{|$)/, '')
      .replace(/,?le="[^"]*"/, '');
    if (runs.at(-1) !== series) runs.push(series);
  }
  return runs;
}

describe('mergeExpositions', () => {
  it('is the exposition of one process that counted what both did: each series summed, each family once, a series together', () => {
    fc.assert(
      fc.property(fc.array(observation, { maxLength: 40 }), fc.array(observation, { maxLength: 40 }), (worker, front) => {
        const merged = mergeExpositions(observe(createPlantMetrics(), worker).expose(), observe(createPlantMetrics(), front).expose());
        const both = observe(observe(createPlantMetrics(), worker), front).expose();
        expect(normalised(merged)).toEqual(normalised(both));
        const runs = seriesRuns(merged);
        expect(new Set(runs).size).toBe(runs.length);
      }),
    );
  });

  it('keeps the larger of the two drain gauges, and the first exposition as it is when the second counts nothing new', () => {
    const draining = createPlantMetrics();
    draining.setDraining(true);
    const serving = createPlantMetrics();
    expect(mergeExpositions(serving.expose(), draining.expose())).toContain('\nplant_store_draining 1\n');
    expect(mergeExpositions(draining.expose(), serving.expose())).toContain('\nplant_store_draining 1\n');
    expect(mergeExpositions(serving.expose(), createPlantMetrics().expose())).toBe(serving.expose());
  });
});
