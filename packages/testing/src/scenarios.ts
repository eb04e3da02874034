export { CONFORMANCE_DOCS_PAGE, CONFORMANCE_ORIGIN, CONFORMANCE_TOKEN, conformanceOptions, INJECTED_FAULT_MESSAGE } from './conformance-scenarios.ts';

export type { ConformanceOptions, ConformanceScenario } from './conformance-scenarios.ts';
