pnpm add ../plant-store-packs/plant-store-core-0.1.0.tgz ../plant-store-packs/plant-store-adapter-node-0.1.0.tgz ../plant-store-packs/plant-store-store-memory-0.1.0.tgz
