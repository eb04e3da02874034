import { defineConfig } from 'tsup';
import { packageBuild } from '../../tsup.config.base.ts';

// `scenarios` and `store-contract` need neither vitest nor Node: fixture servers
// on Bun, Deno and workerd build their failing stores from the first, and the
// store contract runs on every runtime from the second.
export default defineConfig(packageBuild({ index: 'src/index.ts', scenarios: 'src/scenarios.ts', 'store-contract': 'src/store-contract.ts' }));
