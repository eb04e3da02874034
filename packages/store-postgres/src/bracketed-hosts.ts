// Runs wherever the store runs (Node, Bun, Deno): the host list of a PostgreSQL URL that names an IPv6 address.

/** Hosts and their ports, one each, as postgres.js takes them in its `host` and `port` options. */
export interface HostList {
  readonly host: string[];
  readonly port: number[];
}

/**
 * The host list of `url` when one of its hosts is an IPv6 address in brackets
 * (`postgres://app:pw@[2001:db8::7]:5432,[2001:db8::8]/plants`), read as
 * libpq reads it: each address without its brackets, each host with its own
 * port or `defaultPort`. Undefined for a URL without such a host, which
 * postgres.js reads itself as before.
 *
 * postgres.js 3.4.9 cuts each host at its first `:`, so `[::1]:5432` became
 * the host `[` and every connection failed (QUIRKS.md,
 * postgres-ipv6-host-split); given the list as options, it connects to each
 * address as it is. The authority ends at the first `/` or `?` and the
 * credentials at its last `@`, as WHATWG URLs read them.
 *
 * @example
 * bracketedHosts('postgres://u:p@[::1]:6432,db2/plants', 5432); // { host: ['::1', 'db2'], port: [6432, 5432] }
 * @throws TypeError when a bracketed host is not closed, or a port is not a number from 1 to 65535.
 */
export function bracketedHosts(url: string, defaultPort: number): HostList | undefined {
  const scheme = url.indexOf('://');
  if (scheme < 0) return undefined;
  const authority = url.slice(scheme + 3).split(/[/?]/, 1)[0]!;
  const hosts = decodeURIComponent(authority.slice(authority.lastIndexOf('@') + 1));
  if (!hosts.includes('[')) return undefined;
  const host: string[] = [];
  const port: number[] = [];
  for (const entry of hosts.split(',')) {
    const close = entry.startsWith('[') ? entry.indexOf(']') : -1;
    if (entry.startsWith('[') && close < 0) throw new TypeError(`createPostgresStore: the host ${JSON.stringify(entry)} of \`url\` has no closing ]`);
    const [name, rest] = close < 0 ? splitAt(entry, entry.indexOf(':')) : [entry.slice(1, close), entry.slice(close + 1)];
    if (rest !== '' && !rest.startsWith(':'))
      throw new TypeError(`createPostgresStore: the host ${JSON.stringify(entry)} of \`url\` is not [address] or [address]:port`);
    host.push(name);
    port.push(rest === '' ? defaultPort : portOf(rest.slice(1), entry));
  }
  return { host, port };
}

function splitAt(entry: string, colon: number): [string, string] {
  return colon < 0 ? [entry, ''] : [entry.slice(0, colon), entry.slice(colon)];
}

function portOf(text: string, entry: string): number {
  const port = /^\d{1,5}$/.test(text) ? Number(text) : 0;
  if (port < 1 || port > 65535) throw new TypeError(`createPostgresStore: the port of ${JSON.stringify(entry)} in \`url\` is not a number from 1 to 65535`);
  return port;
}
