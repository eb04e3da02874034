import { createPlantClient } from '@plant-store/client';

const client = createPlantClient({ baseUrl: 'http://127.0.0.1:8080', token: 's3cret-token' });

// A bigint carries every int64 exactly; a number only up to 2^53 - 1.
const plant = await client.createPlant({ id: 9223372036854775807n, name: 'Monstera', tag: 'tropical' });
console.log(plant); // { name: 'Monstera', tag: 'tropical' }
