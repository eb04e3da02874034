export { anyString, int64, invalidCreate, outOfRangeInteger, validCreate } from './arbitraries.ts';
export { CONFORMANCE_DOCS_PAGE, CONFORMANCE_ORIGIN, CONFORMANCE_TOKEN, conformanceOptions, INJECTED_FAULT_MESSAGE } from './conformance-scenarios.ts';
export { describeHttpConformance, expectError, freshId } from './describe-http-conformance.ts';
export { describeStoreContract } from './describe-store-contract.ts';
export { keepAliveAgent, send } from './http-client.ts';
export { startKeepAliveLoad } from './keep-alive-load.ts';
export { parseResponses, rawExchange } from './raw-exchange.ts';
export { runStoreContract, runStoreContractCheck, STORE_CONTRACT } from './store-contract.ts';
export { createResponseValidator, dereference } from './validate-response.ts';

export type { InvalidCreate, ValidCreate } from './arbitraries.ts';
export type { ConformanceOptions, ConformanceScenario } from './conformance-scenarios.ts';
export type { ConformanceTarget, RunningTarget } from './describe-http-conformance.ts';
export type { BetweenChunks, RawRequest, RawResponse } from './http-client.ts';
export type { KeepAliveLoad, LoadOutcome } from './keep-alive-load.ts';
export type { RawExchangeOptions, RawExchangeResult, RawStep } from './raw-exchange.ts';
export type { StoreContractCheck, StoreContractOptions, StoreContractResult } from './store-contract.ts';
