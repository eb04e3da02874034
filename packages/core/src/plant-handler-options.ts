// Runs anywhere (no runtime API): what createPlantHandler, createPlantResponder and the adapters are configured with.
import type { ExchangeOptions } from './exchange/exchange-settings.ts';
import type { OptionsOf } from './exchange/feature.ts';
import type FEATURES from './features.ts';

/** The registered features' options, each declared and documented in the feature's folder. */
type FeatureOptions = OptionsOf<typeof FEATURES>;

/**
 * Options of `createPlantHandler`, `createPlantResponder` and the adapters' factories: the handler's own
 * ({@link ExchangeOptions}) and its features', each declared and documented in its folder under `features/`.
 */
export interface PlantHandlerOptions extends ExchangeOptions, FeatureOptions {}

export type { ErrorContext } from './exchange/plant-exchange.ts';
