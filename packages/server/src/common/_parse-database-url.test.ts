// Runs under vitest on Node.
import { describe, expect, it } from 'vitest';
import { parseDatabaseUrl, redact } from './_parse-database-url.ts';

describe('parseDatabaseUrl', () => {
  it('reads every documented form', () => {
    expect(parseDatabaseUrl(undefined)).toEqual({ kind: 'default' });
    expect(parseDatabaseUrl('memory:')).toEqual({ kind: 'memory' });
    expect(parseDatabaseUrl('sqlite:plants.db')).toEqual({ kind: 'sqlite', path: 'plants.db' });
    expect(parseDatabaseUrl('sqlite:/var/lib/plants.db')).toEqual({ kind: 'sqlite', path: '/var/lib/plants.db' });
    expect(parseDatabaseUrl('file:///var/lib/my%20plants.db')).toEqual({ kind: 'sqlite', path: '/var/lib/my plants.db' });
    expect(parseDatabaseUrl('file:plants.db')).toEqual({ kind: 'sqlite', path: 'plants.db' });
    expect(parseDatabaseUrl('file://localhost/var/lib/plants.db?mode=rw')).toEqual({ kind: 'sqlite', path: '/var/lib/plants.db' });
    expect(parseDatabaseUrl('postgres://u:p@db:5432/plants')).toEqual({ kind: 'postgres', url: 'postgres://u:p@db:5432/plants' });
    expect(parseDatabaseUrl('postgresql://db/plants')).toEqual({ kind: 'postgres', url: 'postgresql://db/plants' });
    expect(parseDatabaseUrl('rqlite://10.0.0.1:4001,10.0.0.2:4001, 10.0.0.3:4001/')).toEqual({
      kind: 'rqlite',
      urls: ['http://10.0.0.1:4001', 'http://10.0.0.2:4001', 'http://10.0.0.3:4001'],
    });
    expect(parseDatabaseUrl('rqlites://u:p@q@db-1.example:4001,[::1]:4001')).toEqual({
      kind: 'rqlite',
      urls: ['https://u:p@q@db-1.example:4001', 'https://u:p@q@[::1]:4001'],
    });
  });

  it('refuses an rqlite node without its port, naming the variable and never the password', () => {
    for (const url of ['rqlite://db', 'rqlite://u:hunter2@db:4001,db2', 'rqlite:db:4001', 'rqlite://', 'rqlite://db:4001/plants']) {
      expect(() => parseDatabaseUrl(url)).toThrow(/^PLANT_STORE_DATABASE_URL: rqlite needs every node as host:port/);
      expect(() => parseDatabaseUrl(url)).not.toThrow(/hunter2/);
    }
  });

  it('refuses other schemes and an empty path, naming the variable and never the password', () => {
    expect(() => parseDatabaseUrl('mysql://root:hunter2@db/plants')).toThrow(/^PLANT_STORE_DATABASE_URL: .*mysql:\/\/root:\*\*\*@db\/plants/);
    expect(() => parseDatabaseUrl('mysql://root:hunter2@db/plants')).not.toThrow(/hunter2/);
    expect(() => parseDatabaseUrl('plants.db')).toThrow(/PLANT_STORE_DATABASE_URL/);
    expect(() => parseDatabaseUrl('sqlite:')).toThrow(/needs a file path/);
  });

  it('refuses a file: URL that names another host, none and no path, or a % that is no escape, naming the variable', () => {
    // file://plants.db was read as the path "b", its last character.
    for (const url of ['file://plants.db', 'file://server/var/lib/plants.db']) {
      expect(() => parseDatabaseUrl(url)).toThrow(/^PLANT_STORE_DATABASE_URL: a file: URL names a file of this machine/);
    }
    expect(() => parseDatabaseUrl('file:///var/lib/plants%ZZ.db')).toThrow(/^PLANT_STORE_DATABASE_URL: the file: URL .* has a % not followed/);
  });

  it('refuses a value that is set but empty, as an unset deployment secret arrives, rather than falling back to a local file', () => {
    for (const empty of ['', '  ']) {
      expect(() => parseDatabaseUrl(empty)).toThrow(
        'PLANT_STORE_DATABASE_URL: set but empty; set it to memory:, sqlite:PATH, a file: URL, postgres://… or rqlite://…, or unset it for the default store',
      );
    }
  });

  it('redacts a password only', () => {
    expect(redact('postgres://u:secret@db:5432/x')).toBe('postgres://u:***@db:5432/x');
    expect(redact('postgres://db/x')).toBe('postgres://db/x');
    expect(redact('postgres://u@db:5432/x')).toBe('postgres://u@db:5432/x');
    // A password with an unencoded @ or / is hidden whole.
    expect(redact('postgres://u:p@ss@127.0.0.1:1/db')).toBe('postgres://u:***@127.0.0.1:1/db');
    expect(redact('mysql://root:hunter/2@db/plants')).toBe('mysql://root:***@db/plants');
    expect(() => parseDatabaseUrl('mysql://root:hunter/2@db/plants')).not.toThrow(/hunter/);
  });
});
