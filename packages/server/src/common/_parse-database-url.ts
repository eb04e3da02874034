// Runs wherever a standalone server reads its settings: plain data.
/**
 * Where a standalone server keeps plants, as `PLANT_STORE_DATABASE_URL` says
 * (docs/contract.md, "Stores"): `default` when it is unset.
 */
export type StoreChoice =
  | { readonly kind: 'default' }
  | { readonly kind: 'memory' }
  | { readonly kind: 'sqlite'; readonly path: string }
  | { readonly kind: 'postgres'; readonly url: string }
  | { readonly kind: 'rqlite'; readonly urls: readonly string[] };

/**
 * Reads `PLANT_STORE_DATABASE_URL`: `memory:`, `sqlite:PATH`, a `file:` URL,
 * `postgres://…` (`postgresql://…`), or `rqlite://[user:password@]host:port,…`
 * (`rqlites://` for HTTPS), every node of an rqlite cluster; unset is the
 * default store.
 *
 * @throws TypeError naming the variable for any other scheme, an empty path,
 *   or a value that is set but empty: what a deployment's unset secret gives,
 *   which would otherwise write plants to a local file no one meant.
 */
export function parseDatabaseUrl(value: string | undefined): StoreChoice {
  if (value === undefined) return { kind: 'default' };
  const text = value.trim();
  if (text === '')
    throw new TypeError(
      'PLANT_STORE_DATABASE_URL: set but empty; set it to memory:, sqlite:PATH, a file: URL, postgres://… or rqlite://…, or unset it for the default store',
    );
  const colon = text.indexOf(':');
  const scheme = colon < 0 ? '' : text.slice(0, colon).toLowerCase();
  switch (scheme) {
    case 'memory':
      return { kind: 'memory' };
    case 'sqlite':
      return sqlite(text.slice(colon + 1));
    case 'file':
      return sqlite(filePath(text));
    case 'postgres':
    case 'postgresql':
      return { kind: 'postgres', url: text };
    case 'rqlite':
    case 'rqlites':
      return rqlite(text, scheme === 'rqlites' ? 'https' : 'http');
    default:
      throw new TypeError(
        `PLANT_STORE_DATABASE_URL: expected memory:, sqlite:PATH, a file: URL, postgres://… or rqlite://…, got ${JSON.stringify(redact(text))}`,
      );
  }
}

function sqlite(path: string): StoreChoice {
  if (path === '') throw new TypeError('PLANT_STORE_DATABASE_URL: sqlite: needs a file path, e.g. sqlite:plants.db');
  return { kind: 'sqlite', path };
}

/**
 * `rqlite://u:p@10.0.0.1:4001,10.0.0.2:4001` → one `http://u:p@host:port` URL per node
 * (`https` for `rqlites://`): the credentials, given once, go to every node.
 */
function rqlite(text: string, protocol: 'http' | 'https'): StoreChoice {
  const start = text.indexOf('://');
  const rest = start < 0 ? '' : text.slice(start + 3);
  const at = rest.lastIndexOf('@');
  const credentials = at < 0 ? '' : rest.slice(0, at + 1);
  const nodes = rest
    .slice(at + 1)
    .replace(/\/+$/, '')
    .split(',')
    .map((host) => host.trim());
  if (nodes.some((host) => !/^(?:\[[0-9a-f:.]+\]|[\w.-]+):\d{1,5}$/i.test(host))) {
    throw new TypeError(
      `PLANT_STORE_DATABASE_URL: rqlite needs every node as host:port, e.g. rqlite://10.0.0.1:4001,10.0.0.2:4001,10.0.0.3:4001, got ${JSON.stringify(redact(text))}`,
    );
  }
  return { kind: 'rqlite', urls: nodes.map((host) => `${protocol}://${credentials}${host}`) };
}

/**
 * `file:///var/lib/plants.db` (or `file://localhost/var/lib/plants.db`) → `/var/lib/plants.db`; `file:plants.db` →
 * `plants.db` (RFC 8089). A URL naming another host, or none and no path (`file://plants.db`), is refused rather than
 * read as a path it does not say.
 */
function filePath(text: string): string {
  const rest = text.slice('file:'.length).split(/[?#]/)[0] ?? '';
  let path = rest;
  if (rest.startsWith('//')) {
    const slash = rest.indexOf('/', 2);
    const host = slash < 0 ? rest.slice(2) : rest.slice(2, slash);
    if (slash < 0 || (host !== '' && host.toLowerCase() !== 'localhost')) {
      throw new TypeError(
        `PLANT_STORE_DATABASE_URL: a file: URL names a file of this machine, e.g. file:///var/lib/plants.db or file:plants.db, got ${JSON.stringify(text)}`,
      );
    }
    path = rest.slice(slash);
  }
  try {
    return decodeURIComponent(path);
  } catch {
    throw new TypeError(`PLANT_STORE_DATABASE_URL: the file: URL ${JSON.stringify(text)} has a % not followed by two hex digits of UTF-8`);
  }
}

/**
 * The value without a password, fit for a message: everything between the user's name and the last `@`, so that a
 * password holding an unencoded `@` or `/` is hidden whole (a path or query holding an `@` hides more, never less).
 */
export function redact(url: string): string {
  const start = url.indexOf('://');
  const at = url.lastIndexOf('@');
  if (start < 0 || at < start) return url;
  const colon = url.indexOf(':', start + 3);
  return colon < 0 || colon > at ? url : `${url.slice(0, colon + 1)}***${url.slice(at)}`;
}
