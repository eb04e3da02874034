#!/usr/bin/env node
import { runNode } from '../run-node.ts';

// The standalone Node server: `pnpm start` at the repository root, or `plant-store`.
void runNode();
