#!/usr/bin/env node
// Runs on Node: the `plant-store` command.
import { answerCliArgs } from '../common/_answer-cli-args.ts';
import { runNode } from '../node/run-node.ts';

// The standalone Node server: `pnpm start` at the repository root, or `plant-store`.
const code = answerCliArgs(process.argv.slice(2), 'Node', {
  out: (text) => process.stdout.write(`${text}\n`),
  err: (text) => process.stderr.write(`${text}\n`),
});
// An exit code rather than process.exit(), which could cut the text short on a pipe.
if (code === undefined) void runNode();
else process.exitCode = code;
