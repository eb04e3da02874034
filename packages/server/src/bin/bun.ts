// Runs on Bun: the standalone Bun entry (`pnpm start:bun`, dist/standalone/bun.js).
import { answerCliArgs } from '../common/_answer-cli-args.ts';
import { runBun } from '../bun/run-bun.ts';

// The standalone Bun server: `pnpm start:bun`.
const code = answerCliArgs(process.argv.slice(2), 'Bun', {
  out: (text) => process.stdout.write(`${text}\n`),
  err: (text) => process.stderr.write(`${text}\n`),
});
if (code === undefined) void runBun();
else process.exitCode = code;
