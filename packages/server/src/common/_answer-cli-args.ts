// Runs in the Node, Bun, Deno and workerd launchers, for --help and --version.
import packageJson from '../../package.json' with { type: 'json' };
import type { Runtime } from './_standalone-variables.ts';
import { usageText } from './_usage-text.ts';

/** Where {@link answerCliArgs} writes: the runtime's standard output and error. */
export interface CliOutput {
  out(text: string): void;
  err(text: string): void;
}

/** The version of the server, as `--version` prints it. */
export const VERSION: string = packageJson.version;

/**
 * Answers a launcher's command-line arguments before anything starts:
 * `--help` (`-h`) prints {@link usageText}, `--version` (`-v`) the package
 * version, both exit 0; any other argument is refused with exit 2 (settings
 * are environment variables, so a `--port 80` that silently did nothing would
 * mislead). No argument: `undefined`, serve.
 *
 * @param runtime Where the launcher runs, as `--help` names it.
 * @returns The exit code to end with, or `undefined` to start serving.
 */
export function answerCliArgs(args: readonly string[], runtime: Runtime, output: CliOutput): number | undefined {
  if (args.length === 0) return undefined;
  const unknown = args.find((arg) => !['-h', '--help', '-v', '--version'].includes(arg));
  if (unknown !== undefined) {
    output.err(`plant-store: unknown argument ${JSON.stringify(unknown)}; settings are environment variables, listed by --help`);
    return 2;
  }
  output.out(args.some((arg) => arg === '-h' || arg === '--help') ? usageText(runtime) : VERSION);
  return 0;
}
