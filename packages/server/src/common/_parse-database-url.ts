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

/** `file:///var/lib/plants.db` → `/var/lib/plants.db`; `file:plants.db` → `plants.db`. */
function filePath(text: string): string {
  const rest = text.slice('file:'.length);
  const path = rest.startsWith('//') ? rest.slice(rest.indexOf('/', 2)) : rest;
  return decodeURIComponent(path.split(/[?#]/)[0] ?? '');
}

/** The value without a password, fit for a message. */
export function redact(url: string): string {
  return url.replace(/^([a-z][a-z0-9+.-]*:\/\/[^:/@]*:)[^@/]*@/i, '$1***@');
}
