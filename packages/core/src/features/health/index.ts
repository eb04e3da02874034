// Runs anywhere (no runtime API): the `health` feature (the default export, which features.ts registers); it has no public surface of its own.
export { healthFeature as default } from './health-feature.ts';
