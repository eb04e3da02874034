// Runs anywhere (no runtime API): a request's method as the OpenTelemetry HTTP semantic conventions name it.

const KNOWN_METHODS: ReadonlySet<string> = new Set(['CONNECT', 'DELETE', 'GET', 'HEAD', 'OPTIONS', 'PATCH', 'POST', 'PUT', 'TRACE']);

/**
 * `http.request.method`: the method when it is one RFC 9110 or RFC 5789
 * defines, else `_OTHER`, so that clients cannot make series or span names
 * without end.
 *
 * @example
 * methodLabel('POST'); // 'POST'
 * methodLabel('BREW'); // '_OTHER'
 */
export function methodLabel(method: string): string {
  return KNOWN_METHODS.has(method) ? method : '_OTHER';
}
