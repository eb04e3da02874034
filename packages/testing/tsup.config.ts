import { defineConfig } from 'tsup';
import { packageBuild } from '../../tsup.config.base.ts';

// `scenarios` needs neither vitest nor Node: fixture servers on Bun, Deno and
// workerd build their failing stores from it.
export default defineConfig(packageBuild({ index: 'src/index.ts', scenarios: 'src/scenarios.ts' }));
