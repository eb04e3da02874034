// Runs anywhere (fetch only): plain string work on a node's address, no I/O.

/** One rqlite node as the store talks to it: where, and with which credentials. */
export interface RqliteNode {
  /** `http://host:port` or `https://host:port`, without credentials: `fetch` refuses a URL that has them. */
  readonly origin: string;
  /** `Basic …` from the URL's `user:password`, when it has them. */
  readonly authorization?: string;
}

/**
 * A node's HTTP API address, e.g. `http://127.0.0.1:4001` or
 * `https://user:secret@db1.internal:4001`, as the store uses it. The URL must
 * name the node alone: a path, query or fragment would be dropped silently by
 * the store, so it is refused.
 *
 * @example
 * parseNodeUrl('http://bob:s3cret@127.0.0.1:4001') // { origin: 'http://127.0.0.1:4001', authorization: 'Basic Ym9iOnMzY3JldA==' }
 * @throws TypeError when `url` is no http(s) URL of a node alone. Its message never holds the password.
 */
export function parseNodeUrl(url: string): RqliteNode {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new TypeError(`createRqliteStore: ${redact(url)} is not a URL; expected e.g. http://127.0.0.1:4001`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new TypeError(`createRqliteStore: ${redact(url)} must be an http: or https: URL`);
  }
  if ((parsed.pathname !== '/' && parsed.pathname !== '') || parsed.search !== '' || parsed.hash !== '') {
    throw new TypeError(`createRqliteStore: ${redact(url)} must name a node alone, without a path, query or fragment`);
  }
  if (parsed.username === '' && parsed.password === '') return { origin: parsed.origin };
  const credentials = `${decodeURIComponent(parsed.username)}:${decodeURIComponent(parsed.password)}`;
  return { origin: parsed.origin, authorization: `Basic ${base64(credentials)}` };
}

/**
 * `url` with its password replaced by `***`, for messages that may be logged: everything between the user's name and
 * the last `@`, so that a password holding an unencoded `@` or `/` is hidden whole.
 */
function redact(url: string): string {
  const start = url.indexOf('://');
  const at = url.lastIndexOf('@');
  if (start < 0 || at < start) return url;
  const colon = url.indexOf(':', start + 3);
  return colon < 0 || colon > at ? url : `${url.slice(0, colon + 1)}***${url.slice(at)}`;
}

/** Base64 of the UTF-8 bytes: `btoa` alone takes only Latin-1, and a password may hold any character. */
function base64(text: string): string {
  let binary = '';
  for (const byte of new TextEncoder().encode(text)) binary += String.fromCharCode(byte);
  return btoa(binary);
}
