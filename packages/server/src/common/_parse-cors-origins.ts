// Runs wherever a standalone server reads its settings: plain data.
/**
 * Reads `PLANT_STORE_CORS_ORIGINS`: `*` (every origin), or origins separated
 * by commas, each `http://` or `https://` with a host and an optional port, as
 * a browser sends it in `Origin` (`https://app.example.com`,
 * `http://localhost:5173`). They come back as browsers serialise them (scheme
 * and host in lowercase, a default port dropped, a trailing `/` forgiven).
 * Unset or empty: no origin, CORS off.
 *
 * @throws TypeError naming the variable and the entry for anything else: a
 *   path, a query, credentials, another scheme, or `*` among origins.
 */
export function parseCorsOrigins(value: string | undefined): readonly string[] | '*' {
  const entries = (value ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
  if (entries.length === 1 && entries[0] === '*') return '*';
  const origins: string[] = [];
  for (const entry of entries) {
    const origin = entry === '*' ? undefined : originOf(entry);
    if (origin === undefined) {
      throw new TypeError(
        `PLANT_STORE_CORS_ORIGINS: expected * or origins such as https://app.example.com (scheme, host, optional port; no path), comma-separated, got ${JSON.stringify(entry)}`,
      );
    }
    if (!origins.includes(origin)) origins.push(origin);
  }
  return origins;
}

function originOf(text: string): string | undefined {
  // Checked before parsing: a URL parser forgives `https://a.example/?` or `#`, and a path is not an origin.
  if (!/^https?:\/\/[^/?#@\s]+\/?$/i.test(text)) return undefined;
  try {
    const url = new URL(text);
    return url.origin === 'null' ? undefined : url.origin;
  } catch {
    return undefined;
  }
}
