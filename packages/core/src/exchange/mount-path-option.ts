// Runs anywhere (no runtime API), called by every adapter: the `mountPath` option checked.
/**
 * Checks an adapter's `mountPath` option and writes it as the core writes `basePath`:
 * `''` for the root, otherwise a leading `/` and no trailing one.
 *
 * @param factory The function that was given the option, named in the error.
 * @throws TypeError for a path that does not start with `/` or holds a query or fragment.
 * @example
 * mountPathOption('createNodeHandler', '/v1/') // '/v1'
 */
export function mountPathOption(factory: string, mountPath: string | undefined): string | undefined {
  if (mountPath === undefined) return undefined;
  if (typeof mountPath !== 'string' || (mountPath !== '' && !mountPath.startsWith('/')) || /[?#]/.test(mountPath)) {
    throw new TypeError(`${factory}: \`mountPath\` must start with "/" and hold no query`);
  }
  return mountPath.endsWith('/') ? mountPath.slice(0, -1) : mountPath;
}
