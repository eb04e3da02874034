// Runs wherever the store runs (Node, Bun, Deno): the host list of a PostgreSQL URL that names an IPv6 address.

/** Hosts and their ports, one each, as postgres.js takes them in its `host` and `port` options, and the URL to give it beside them. */
export interface HostList {
  readonly host: string[];
  readonly port: number[];
  /** The URL with its host list replaced by `localhost`, so that postgres.js, which takes the hosts from the options, can read the rest. */
  readonly url: string;
}

/**
 * The host list of `url` when one of its hosts is an IPv6 address in brackets
 * (`postgres://app:pw@[2001:db8::7]:5432,[2001:db8::8]/plants`), read as
 * libpq reads it: each address without its brackets (a zone, `%25eth0`,
 * decoded), each host with its own port or `defaultPort`. Undefined for a URL
 * without such a host, which postgres.js reads itself as before.
 *
 * postgres.js 3.4.9 cuts each host at its first `:`, so `[::1]:5432` became
 * the host `[` and every connection failed (QUIRKS.md,
 * postgres-ipv6-host-split); given the list as options, it connects to each
 * address as it is. The authority ends at the first `/`, `?` or `#` and the
 * credentials at its last `@`, as WHATWG URLs read them.
 *
 * @example
 * bracketedHosts('postgres://u:p@[::1]:6432,db2/plants', 5432); // { host: ['::1', 'db2'], port: [6432, 5432], url: 'postgres://u:p@localhost/plants' }
 * @throws TypeError when a host is empty, a bracket is not closed, a port is not a number from 1 to 65535, or the hosts are not valid percent-encoding.
 */
export function bracketedHosts(url: string, defaultPort: number): HostList | undefined {
  const scheme = url.indexOf('://');
  if (scheme < 0) return undefined;
  const start = scheme + 3;
  const authority = url.slice(start).split(/[/?#]/, 1)[0]!;
  const at = authority.lastIndexOf('@') + 1;
  const encoded = authority.slice(at);
  if (!encoded.includes('[')) return undefined;
  const host: string[] = [];
  const port: number[] = [];
  for (const entry of encoded.split(',')) {
    const close = entry.startsWith('[') ? entry.indexOf(']') : -1;
    if (entry === '') throw new TypeError('createPostgresStore: `url` names an empty host in its host list');
    if (entry.startsWith('[') && close < 0) throw new TypeError(`createPostgresStore: the host ${JSON.stringify(entry)} of \`url\` has no closing ]`);
    const [name, rest] = close < 0 ? splitAt(entry, entry.indexOf(':')) : [entry.slice(1, close), entry.slice(close + 1)];
    if (rest !== '' && !rest.startsWith(':'))
      throw new TypeError(`createPostgresStore: the host ${JSON.stringify(entry)} of \`url\` is not [address] or [address]:port`);
    host.push(decoded(name, entry));
    port.push(rest === '' ? defaultPort : portOf(rest.slice(1), entry));
  }
  return { host, port, url: `${url.slice(0, start + at)}localhost${url.slice(start + authority.length)}` };
}

function splitAt(entry: string, colon: number): [string, string] {
  return colon < 0 ? [entry, ''] : [entry.slice(0, colon), entry.slice(colon)];
}

function decoded(name: string, entry: string): string {
  try {
    return decodeURIComponent(name);
  } catch {
    throw new TypeError(
      `createPostgresStore: the host ${JSON.stringify(entry)} of \`url\` is not valid percent-encoding (a zone is written %25, as in [fe80::1%25eth0])`,
    );
  }
}

function portOf(text: string, entry: string): number {
  const port = /^\d{1,5}$/.test(text) ? Number(text) : 0;
  if (port < 1 || port > 65535) throw new TypeError(`createPostgresStore: the port of ${JSON.stringify(entry)} in \`url\` is not a number from 1 to 65535`);
  return port;
}
