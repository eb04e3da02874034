import { createPlant, errorTable } from '@plant-store/core';
import { createMemoryStore } from '@plant-store/store-memory';

// The create operation without HTTP: the same rules, as a value instead of an answer.
const store = createMemoryStore();
const result = await createPlant(store, { id: 9223372036854775807n, name: 'Monstera', tag: 'tropical' });
if (result.ok) {
  console.log(result.value.outcome, result.value.plant); // created { name: 'Monstera', tag: 'tropical' }
} else {
  const { status, code } = errorTable[result.error.kind];
  console.log(status, code, result.error.message); // e.g. 409 1300 id: a plant with id … already exists …
}
