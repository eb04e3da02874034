import { defineConfig } from 'tsup';
import { packageBuild } from '../../tsup.config.base.ts';

export default defineConfig(packageBuild({ index: 'src/index.ts' }));
