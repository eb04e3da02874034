// Runs anywhere (no runtime API): the `overload` feature (the default export, which features.ts registers) and its public surface, which the core exports.
export { overloadFeature as default } from './overload-feature.ts';
export {
  createOverloadGate,
  DEFAULT_MAX_EVENT_LOOP_DELAY_MS,
  DEFAULT_MAX_IN_FLIGHT,
  DEFAULT_RETRY_AFTER_SECONDS,
  DEFAULT_SAMPLE_INTERVAL_MS,
} from './overload-gate.ts';
export type { OverloadGate, OverloadOptions } from './overload-gate.ts';
