export { CONFORMANCE_TOKEN, conformanceOptions, INJECTED_FAULT_MESSAGE } from './conformance-scenarios.ts';

export type { ConformanceScenario } from './conformance-scenarios.ts';
