import { createPlantClient } from '@plant-store/client';

const client = createPlantClient({ baseUrl: 'http://127.0.0.1:8080', token: 's3cret-token' });

// An id that arrives as text (a form field, a URL) becomes a bigint without passing through a number.
const id = BigInt('9007199254740993');
console.log(await client.createPlant({ id, name: 'Exact' })); // { name: 'Exact' }

// Written as a number, 9007199254740993 is already 9007199254740992: refused before anything is sent.
const refused = await client.tryCreatePlant({ id: 9007199254740993, name: 'Rounded' });
console.log(refused.ok ? 'sent' : refused.error.code); // invalid-input
