// Runs under vitest on Node: how the store reads a URL's IPv6 hosts, and the postgres.js quirk it works around.
import postgres from 'postgres';
import { describe, expect, it } from 'vitest';
import { bracketedHosts } from './bracketed-hosts.ts';

describe('bracketedHosts', () => {
  it('reads each bracketed address without its brackets, with its own port or the default', () => {
    expect(bracketedHosts('postgres://app:pw@[::1]:6432/plants', 5432)).toEqual({ host: ['::1'], port: [6432], url: 'postgres://app:pw@localhost/plants' });
    expect(bracketedHosts('postgresql://[2001:db8::7]/plants?sslmode=require', 5432)).toEqual({
      host: ['2001:db8::7'],
      port: [5432],
      url: 'postgresql://localhost/plants?sslmode=require',
    });
    expect(bracketedHosts('postgres://app:pw@[2001:db8::7]:5433,db2:5434,[::1],db3/plants', 5432)).toEqual({
      host: ['2001:db8::7', 'db2', '::1', 'db3'],
      port: [5433, 5434, 5432, 5432],
      url: 'postgres://app:pw@localhost/plants',
    });
  });

  it('decodes a zone, and hands postgres.js a URL whose hosts are one plain name', () => {
    expect(bracketedHosts('postgres://app:pw@[fe80::1%25eth0]:5432/plants', 5432)).toEqual({
      host: ['fe80::1%eth0'],
      port: [5432],
      url: 'postgres://app:pw@localhost/plants',
    });
  });

  it('takes the hosts after the last @ of the authority, and the authority up to the first /, ? or #', () => {
    expect(bracketedHosts('postgres://app:p@ss@[::1]:6432?target_session_attrs=primary', 5432)).toEqual({
      host: ['::1'],
      port: [6432],
      url: 'postgres://app:p@ss@localhost?target_session_attrs=primary',
    });
    expect(bracketedHosts('postgres://app:pw@[::1]:6432#plants', 5432)).toEqual({ host: ['::1'], port: [6432], url: 'postgres://app:pw@localhost#plants' });
    expect(bracketedHosts('postgres://app:pw@db:5432/[::1]', 5432)).toBeUndefined();
  });

  it('leaves a URL without a bracketed host to postgres.js', () => {
    for (const url of [
      'postgres://app:pw@db:5432/plants',
      'postgres://app:pw@db1:5432,db2:5432/plants',
      'postgres://%2Fvar%2Frun%2Fpostgresql/plants',
      'not a url',
    ]) {
      expect(bracketedHosts(url, 5432), url).toBeUndefined();
    }
  });

  it('refuses an empty host, an unclosed bracket, a port that is no port or broken percent-encoding, naming the host but not the password', () => {
    for (const [url, message] of [
      ['postgres://app:secret@[::1]:5432,/plants', /empty host/],
      ['postgres://app:secret@[::1:5432/plants', /\[::1:5432.*no closing \]/],
      ['postgres://app:secret@[::1]5432/plants', /not \[address\] or \[address\]:port/],
      ['postgres://app:secret@[::1]:0/plants', /from 1 to 65535/],
      ['postgres://app:secret@[::1]:65536/plants', /from 1 to 65535/],
      ['postgres://app:secret@[::1]:54x/plants', /from 1 to 65535/],
      ['postgres://app:secret@[fe80::1%eth0]/plants', /not valid percent-encoding/],
    ] as const) {
      expect(() => bracketedHosts(url, 5432), url).toThrow(message);
      expect(() => bracketedHosts(url, 5432), url).not.toThrow(/secret/);
    }
  });
});

// packages/store-postgres/QUIRKS.md, postgres-ipv6-host-split: when this fails, delete the set that record lists.
describe('canary: postgres.js still cuts an IPv6 host at its first colon', () => {
  it('reads [::1]:5433,[::1]:5434 as the host [ twice, on the first port', async () => {
    // postgres() only reads its options here; it connects on the first query.
    const sql = postgres('postgres://app:pw@[::1]:5433,[::1]:5434/plants', { onnotice: () => {} });
    try {
      expect(
        { host: sql.options.host, port: sql.options.port },
        'postgres.js now reads IPv6 hosts: delete the set of postgres-ipv6-host-split in packages/store-postgres/QUIRKS.md',
      ).toEqual({ host: ['[', '['], port: [5433, 5433] });
    } finally {
      await sql.end({ timeout: 0 });
    }
  });
});
