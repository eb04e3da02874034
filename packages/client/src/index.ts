export { createPlantClient } from './create-plant-client.ts';
export { ErrorCode } from './error-code.ts';
export { PlantStoreError } from './plant-store-error.ts';

export type { CreatePlantOptions, CreatePlantResult, FetchLike, PlantClient, PlantClientOptions, RetryInfo, RetryOptions } from './create-plant-client.ts';
export type { ClientErrorCode, ServerErrorCode } from './error-code.ts';
export type { NewPlant, Plant } from './plant.ts';
export type { PlantStoreErrorInit } from './plant-store-error.ts';
