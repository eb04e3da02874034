import { staticTokens } from '@plant-store/core';
import { serve } from '@plant-store/server';
import { createPostgresStore } from '@plant-store/store-postgres';

const url = process.env.PLANT_STORE_DATABASE_URL;
if (url === undefined) throw new Error('set PLANT_STORE_DATABASE_URL, e.g. postgres://user:password@127.0.0.1:5432/plants');

// Connects and creates the table if needed; a failure here stops the start.
const store = await createPostgresStore({
  url,
  maxConnections: 10, // connections for creates (default 10); one more serves reads
  connectTimeoutMs: 5_000, // default 5 s
  statementTimeoutMs: 4_500, // default 4.5 s: cancelled past it, before the handler's 5 s
  table: 'plants', // default 'plants'
});

const running = await serve({ store, authenticate: staticTokens(['s3cret-token']) });
process.once('SIGTERM', () => void running.close().then(() => store.close()));
