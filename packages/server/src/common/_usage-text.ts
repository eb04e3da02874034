// Runs in the Node, Bun, Deno and workerd launchers, for --help.
import { STANDALONE_VARIABLES, type Runtime } from './_standalone-variables.ts';

/**
 * What `--help` prints on `runtime`: how to run the server, and every
 * variable it reads with its default. It names variables, never their values,
 * so no token ends up in a terminal's scrollback.
 */
export function usageText(runtime: Runtime): string {
  const width = Math.max(...STANDALONE_VARIABLES.map((variable) => variable.name.length)) + 2;
  const variables = STANDALONE_VARIABLES.map(
    (variable) =>
      `  ${variable.name.padEnd(width)}${variable.only === undefined ? '' : `${inWords(variable.only)} only: `}${variable.meaning}\n  ${''.padEnd(width)}default: ${variable.default}`,
  );
  return [
    'Usage: plant-store [--help | --version]',
    '',
    `The standalone Plant Store server, here on ${runtime}. POST /plants creates a plant, behind bearer auth;`,
    'GET /openapi.json, /docs, /healthz and /readyz need no token.',
    'Settings come from environment variables only:',
    '',
    ...variables,
    '',
    'A switch takes on/off, true/false, yes/no or 1/0, in any case. A PLANT_STORE_ variable not listed here',
    'is ignored, with a warning naming the nearest one listed.',
    '',
    'Options:',
    '  -h, --help     print this text and exit',
    '  -v, --version  print the version and exit',
    '',
    'SIGINT or SIGTERM stops it gracefully: requests in flight finish, then it exits 0.',
    'A setting that cannot work, or an address it cannot listen on, stops the start with one line,',
    'plant-store: <reason>, naming the variable to change, and exit 1.',
  ].join('\n');
}

/** `Node, Bun and Deno`. */
function inWords(runtimes: readonly Runtime[]): string {
  return runtimes.length < 2 ? runtimes.join('') : `${runtimes.slice(0, -1).join(', ')} and ${runtimes.at(-1)}`;
}
