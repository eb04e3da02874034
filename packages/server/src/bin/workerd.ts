// Runs on Node: the standalone workerd launcher (`pnpm start:workerd`, dist/standalone/workerd.js).
import { fileURLToPath } from 'node:url';
import { answerCliArgs } from '../common/_answer-cli-args.ts';
import { runWorkerd } from '../workerd/run-workerd.ts';
import { stopOnStartError } from '../launcher/_stop-on-start-error.ts';

// The standalone workerd server: `pnpm start:workerd` serves the Worker built beside this file.
const code = answerCliArgs(process.argv.slice(2), 'workerd', {
  out: (text) => process.stdout.write(`${text}\n`),
  err: (text) => process.stderr.write(`${text}\n`),
});
if (code === undefined) runWorkerd(fileURLToPath(new URL('./worker.js', import.meta.url))).catch((error: unknown) => stopOnStartError(error, process.env));
else process.exitCode = code;
