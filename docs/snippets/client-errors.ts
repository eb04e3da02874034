import { createPlantClient, ErrorCode, PlantStoreError } from '@plant-store/client';

const client = createPlantClient({ baseUrl: 'http://127.0.0.1:8080', token: 's3cret-token' });

await client.createPlant({ id: 7n, name: 'Fern' });
try {
  await client.createPlant({ id: 7n, name: 'Fern', tag: 'green' }); // the same id, other content
} catch (error) {
  if (!(error instanceof PlantStoreError)) throw error;
  switch (error.code) {
    case ErrorCode.Conflict:
      console.log(error.status, error.code, error.message); // 409 1300 id: a plant with id 7 already exists with a different name or tag
      break;
    case ErrorCode.Network:
    case ErrorCode.Timeout:
    case ErrorCode.StorageUnavailable:
      // Retried already, in vain: the plant may or may not be stored, and sending the same create later is safe.
      break;
    default:
      throw error;
  }
}

// The same create, with the failure as a value.
const result = await client.tryCreatePlant({ id: 7n, name: 'Fern', tag: 'green' });
console.log(result.ok ? result.value : result.error.code); // 1300
