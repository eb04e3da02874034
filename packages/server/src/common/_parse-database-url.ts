// Runs wherever a standalone server reads its settings: plain data.
/**
 * Where a standalone server keeps plants, as `PLANT_STORE_DATABASE_URL` says
 * (docs/contract.md, "Stores"): `default` when it is unset.
 */
export type StoreChoice =
  | { readonly kind: 'default' }
  | { readonly kind: 'memory' }
  | { readonly kind: 'sqlite'; readonly path: string }
  | { readonly kind: 'postgres'; readonly url: string };

/**
 * Reads `PLANT_STORE_DATABASE_URL`: `memory:`, `sqlite:PATH`, a `file:` URL,
 * or `postgres://…` (`postgresql://…`); unset is the default store.
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
      'PLANT_STORE_DATABASE_URL: set but empty; set it to memory:, sqlite:PATH, a file: URL or postgres://…, or unset it for the default store',
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
    default:
      throw new TypeError(`PLANT_STORE_DATABASE_URL: expected memory:, sqlite:PATH, a file: URL or postgres://…, got ${JSON.stringify(redact(text))}`);
  }
}

function sqlite(path: string): StoreChoice {
  if (path === '') throw new TypeError('PLANT_STORE_DATABASE_URL: sqlite: needs a file path, e.g. sqlite:plants.db');
  return { kind: 'sqlite', path };
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
