// Runs anywhere (no runtime API): the `metrics` feature (the default export, which features.ts registers) and its public surface, which the core exports.
export { metricsFeature as default } from './metrics-feature.ts';
export { createPlantMetrics, PlantMetrics } from './plant-metrics.ts';
export { escapeLabelValue, PROMETHEUS_CONTENT_TYPE } from './prometheus-text.ts';
export type { PlantMetricsOptions, ProcessSample } from './plant-metrics.ts';
