export { anyString, int64, invalidCreate, outOfRangeInteger, validCreate } from './testing/arbitraries.ts';
export { CONFORMANCE_TOKEN, conformanceOptions, INJECTED_FAULT_MESSAGE } from './testing/conformance-scenarios.ts';
export { describeHttpConformance, expectError, freshId } from './testing/describe-http-conformance.ts';
export { describeStoreContract } from './testing/describe-store-contract.ts';
export { send } from './testing/http-client.ts';
export { startKeepAliveLoad } from './testing/keep-alive-load.ts';
export { parseResponses, rawExchange } from './testing/raw-exchange.ts';
export { createResponseValidator, dereference } from './testing/validate-response.ts';

export type { InvalidCreate, ValidCreate } from './testing/arbitraries.ts';
export type { ConformanceScenario } from './testing/conformance-scenarios.ts';
export type { ConformanceTarget, RunningTarget } from './testing/describe-http-conformance.ts';
export type { StoreContractOptions } from './testing/describe-store-contract.ts';
export type { BetweenChunks, RawRequest, RawResponse } from './testing/http-client.ts';
export type { KeepAliveLoad, LoadOutcome } from './testing/keep-alive-load.ts';
export type { RawExchangeResult, RawStep } from './testing/raw-exchange.ts';
