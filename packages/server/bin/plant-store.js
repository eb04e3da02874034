#!/usr/bin/env node
// The `plant-store` command: the standalone Node server (docs/contract.md, "Standalone runs").
import '../dist/bin/node.js';
